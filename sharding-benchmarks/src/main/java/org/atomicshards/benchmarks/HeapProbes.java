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
 * Runs the {@link RetainedHeapProbe} for every merge side, query and row count, each in a fresh JVM (same JDK, same
 * class path, serial GC so a full GC leaves only live objects), and reads back its result line.
 */
final class HeapProbes {

    private final Path logDirectory;

    HeapProbes(Path logDirectory) {
        this.logDirectory = logDirectory;
    }

    /** @param failures receives one line per probe that did not produce a result */
    List<Measurement> runAll(List<String> failures) throws IOException, InterruptedException {
        List<Measurement> measurements = new ArrayList<>();
        for (MergeSide side : MergeSide.values()) {
            for (MergeQuery query : MergeQuery.values()) {
                for (String rows : List.of(MergeBenchmark.FEWER_ROWS, MergeBenchmark.MORE_ROWS)) {
                    String key = Catalogue.retainedKey(side.cliName(), query, rows);
                    Optional<Long> retained = run(side, query, rows, key);
                    if (retained.isPresent()) {
                        measurements.add(new Measurement(key, retained.get(), Double.NaN, Unit.BYTES));
                    } else {
                        failures.add(key + ": the probe failed, see " + log(key));
                    }
                }
            }
        }
        return measurements;
    }

    private Optional<Long> run(MergeSide side, MergeQuery query, String rows, String key)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-Xms2g", "-Xmx2g",
                "-cp", System.getProperty("java.class.path"), RetainedHeapProbe.class.getName(),
                side.cliName(), query.cliName(), rows)
                .redirectErrorStream(true)
                .redirectOutput(log(key).toFile())
                .start();
        if (process.waitFor() != 0) {
            return Optional.empty();
        }
        return Files.readAllLines(log(key), StandardCharsets.UTF_8).stream()
                .filter(line -> line.startsWith(RetainedHeapProbe.RESULT_PREFIX))
                .map(line -> Long.parseLong(line.substring(RetainedHeapProbe.RESULT_PREFIX.length()).trim()))
                .findFirst();
    }

    private Path log(String key) {
        return logDirectory.resolve(key.replaceAll("[^A-Za-z0-9.=-]", "_") + ".log");
    }
}
