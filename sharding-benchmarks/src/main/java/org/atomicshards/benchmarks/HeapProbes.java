package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.atomicshards.benchmarks.merge.MergeBenchmark;
import org.atomicshards.benchmarks.merge.MergeQuery;
import org.atomicshards.benchmarks.merge.MergeSide;
import org.atomicshards.benchmarks.merge.RetainedHeapProbe;
import org.atomicshards.benchmarks.report.Measurement;
import org.atomicshards.benchmarks.report.Unit;

/**
 * Runs the {@link RetainedHeapProbe} for every merge side and row count, each in a fresh JVM (same JDK, same class
 * path, serial GC so a full GC leaves only live objects), and reads back its result lines.
 */
final class HeapProbes {

    /** The probes' group in {@code --only} and the results file. */
    static final String GROUP = "heap-probes";

    private final Path logDirectory;

    HeapProbes(Path logDirectory) {
        this.logDirectory = logDirectory;
    }

    /** @param failures receives one line per probe that did not produce a result */
    List<Measurement> runAll(List<String> failures) throws IOException, InterruptedException {
        List<Measurement> measurements = new ArrayList<>();
        for (MergeSide side : MergeSide.values()) {
            for (String rows : List.of(MergeBenchmark.FEWER_ROWS, MergeBenchmark.MORE_ROWS)) {
                Path log = logDirectory.resolve("heap-probe-" + side.cliName() + "-" + rows + ".log");
                List<String> output = run(side, rows, log);
                for (MergeQuery query : MergeQuery.values()) {
                    String key = Catalogue.retainedKey(side.cliName(), query, rows);
                    Optional<Long> retained = result(output, query);
                    if (retained.isPresent()) {
                        measurements.add(new Measurement(key, retained.get(), Double.NaN, Unit.BYTES));
                    } else {
                        failures.add(key + ": the probe gave no result, see " + log);
                    }
                }
            }
        }
        return measurements;
    }

    private List<String> run(MergeSide side, String rows, Path log) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-Xms2g", "-Xmx2g", SuiteGroup.QUIET_SLF4J,
                "-cp", System.getProperty("java.class.path"), RetainedHeapProbe.class.getName(),
                side.cliName(), rows)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.waitFor();
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }

    private static Optional<Long> result(List<String> output, MergeQuery query) {
        String prefix = RetainedHeapProbe.RESULT_PREFIX + query.cliName() + "=";
        return output.stream()
                .filter(line -> line.startsWith(prefix))
                .map(line -> Long.parseLong(line.substring(prefix.length()).trim()))
                .findFirst();
    }
}
