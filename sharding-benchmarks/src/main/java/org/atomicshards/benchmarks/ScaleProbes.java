package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.atomicshards.benchmarks.report.Measurement;
import org.atomicshards.benchmarks.report.Unit;
import org.atomicshards.benchmarks.scale.ScaleProbe;

/**
 * Runs the {@link ScaleProbe} at every shard count of {@link #SHARD_COUNTS}, each in a fresh JVM (same JDK, same
 * class path, serial GC, HikariCP's housekeeping every second), and reads back its figures; adds the heap per idle shard between consecutive shard counts.
 */
final class ScaleProbes {

    /** The probes' group in {@code --only} and the results file. */
    static final String GROUP = "scale-probes";

    static final List<Integer> SHARD_COUNTS = List.of(4, 16, 64, 256);

    private final Path logDirectory;

    ScaleProbes(Path logDirectory) {
        this.logDirectory = logDirectory;
    }

    /** @param failures receives one line per figure that a probe did not produce */
    List<Measurement> runAll(List<String> failures) throws IOException, InterruptedException {
        List<Measurement> measurements = new ArrayList<>();
        for (int shards : SHARD_COUNTS) {
            Path log = logDirectory.resolve("scale-probe-" + shards + ".log");
            List<String> output = run(shards, log);
            for (String figure : ScaleProbe.FIGURES) {
                String key = Catalogue.scaleKey(figure, shards);
                Optional<Long> value = result(output, figure);
                if (value.isPresent()) {
                    Unit unit = figure.startsWith("heap") ? Unit.BYTES
                            : figure.startsWith("threads") || figure.startsWith("connections") ? Unit.COUNT
                            : Unit.MILLIS;
                    measurements.add(new Measurement(key, value.get(), Double.NaN, unit));
                } else {
                    failures.add(key + ": the probe gave no result, see " + log);
                }
            }
        }
        for (int i = 1; i < SHARD_COUNTS.size(); i++) {
            int fewer = SHARD_COUNTS.get(i - 1);
            int more = SHARD_COUNTS.get(i);
            for (String figure : List.of(ScaleProbe.HEAP_BOOTED, ScaleProbe.HEAP_TOUCHED)) {
                Optional<Measurement> small = find(measurements, Catalogue.scaleKey(figure, fewer));
                Optional<Measurement> large = find(measurements, Catalogue.scaleKey(figure, more));
                if (small.isPresent() && large.isPresent()) {
                    measurements.add(new Measurement(Catalogue.heapPerShardKey(figure, more),
                            (large.get().value() - small.get().value()) / (more - fewer), Double.NaN,
                            Unit.BYTES_PER_SHARD));
                }
            }
        }
        return measurements;
    }

    private static Optional<Measurement> find(List<Measurement> measurements, String key) {
        return measurements.stream().filter(m -> m.key().equals(key)).findFirst();
    }

    private List<String> run(int shards, Path log) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-XX:+UseSerialGC", "-Xms1g", "-Xmx1g",
                SuiteGroup.QUIET_SLF4J, "-D" + ScaleProbe.HOUSEKEEPING_PERIOD_PROPERTY, "-cp", System.getProperty("java.class.path"), ScaleProbe.class.getName(),
                Integer.toString(shards))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.waitFor();
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }

    private static Optional<Long> result(List<String> output, String figure) {
        String prefix = ScaleProbe.RESULT_PREFIX + figure + "=";
        return output.stream()
                .filter(line -> line.startsWith(prefix))
                .map(line -> Long.parseLong(line.substring(prefix.length()).trim()))
                .findFirst();
    }
}
