package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

import org.atomicshards.benchmarks.report.Comparison;
import org.atomicshards.benchmarks.report.Measurements;
import org.atomicshards.benchmarks.report.ResultTable;
import org.atomicshards.benchmarks.report.SteadyState;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * The one benchmark command: runs every {@link SuiteGroup} with JMH and the {@link HeapProbes}, then prints one
 * table comparing each result with its baseline from this same run, against issue 6's targets.
 *
 * <p>Usage: {@code BenchmarkSuite [outputDirectory] [--only=<group regex>]}. Groups that need a PostgreSQL server
 * ({@code pg-...}) run only when the pattern names them, never under the default {@code .*}. The output directory (default
 * {@code target/benchmarks}) receives JMH's logs and JSON results, the probes' logs and {@code results.md}.
 */
public final class BenchmarkSuite {

    private BenchmarkSuite() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, RunnerException {
        Path output = Path.of("target", "benchmarks");
        Pattern only = Pattern.compile(".*");
        for (String arg : args) {
            if (arg.startsWith("--only=")) {
                only = Pattern.compile(arg.substring("--only=".length()));
            } else {
                output = Path.of(arg);
            }
        }
        Files.createDirectories(output);
        Instant start = Instant.now();
        String machineBefore = Machine.describe();

        Measurements measurements = new Measurements();
        List<String> failures = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (SuiteGroup group : SuiteGroup.all()) {
            if (!group.selectedBy(only)) {
                if (group.needsPostgres() && only.matcher(group.name()).matches()) {
                    skipped.add(group.name());
                }
                continue;
            }
            progress(start, "running " + group.name() + " (log: " + output.resolve(group.logName()) + ")");
            try {
                Collection<RunResult> results = group.interleavesForks()
                        ? new InterleavedForks(group, output, line -> progress(start, line)).run()
                        : new Runner(group.options(output)).run();
                JmhMeasurements.from(results).forEach(measurements::add);
            } catch (NoBenchmarksException e) {
                failures.add(group.name() + ": no benchmark in this build matches " + group.include());
            }
        }
        if (only.matcher("heap-probes").matches()) {
            progress(start, "running heap probes (logs in " + output + ")");
            new HeapProbes(output).runAll(failures).forEach(measurements::add);
        }
        if (only.matcher("scale-probes").matches()) {
            progress(start, "running scale probes (logs in " + output + ")");
            new ScaleProbes(output).runAll(failures).forEach(measurements::add);
        }
        if (MoveProbes.selectedBy(only)) {
            progress(start, "running " + MoveProbes.GROUP + " (log: " + output.resolve("move-probe.log") + ")");
            new MoveProbes(output).run(failures).forEach(measurements::add);
        } else if (only.matcher(MoveProbes.GROUP).matches()) {
            skipped.add(MoveProbes.GROUP);
        }
        progress(start, "done");

        Pattern selected = only;
        boolean postgresRan = MoveProbes.selectedBy(only) || SuiteGroup.all().stream()
                .anyMatch(group -> group.needsPostgres() && group.selectedBy(selected));
        List<Comparison> comparisons = Catalogue.comparisons().stream()
                .filter(row -> postgresRan || !Catalogue.onPostgres(row))
                .toList();
        if (!skipped.isEmpty()) {
            failures.add("the rows on PostgreSQL: not run by default (they need a PostgreSQL server, see "
                    + "PostgresShards); run them with -Dbenchmarks.only='pg-.*'");
        }
        String report = "Machine: " + machineBefore + "\n"
                + "Load average after the run: " + Machine.loadAverage() + "\n"
                + "Run: " + start + ", " + minutes(Duration.between(start, Instant.now())) + "\n\n"
                + ResultTable.render(comparisons, measurements)
                + warmingUp(comparisons, measurements)
                + notMeasured(comparisons, measurements, failures);
        System.out.println();
        System.out.println(report);
        Files.writeString(output.resolve("results.md"), report, StandardCharsets.UTF_8);
    }

    private static String warmingUp(List<Comparison> comparisons, Measurements measurements) {
        List<String> keys = ResultTable.warmingUp(comparisons, measurements);
        if (keys.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nStill warming up when measured (in one of its JVMs, the first measured"
                + " iteration more than " + Math.round(SteadyState.TOLERANCE * 100) + "% worse than the median of that"
                + " JVM's others), so the "
                + "rows comparing them have no verdict; run the group again with a longer warm-up or on a faster, "
                + "idler machine:\n");
        keys.forEach(key -> out.append("- ").append(key).append('\n'));
        return out.toString();
    }

    private static String notMeasured(List<Comparison> comparisons, Measurements measurements,
                                      List<String> failures) {
        List<Comparison> missing = ResultTable.unmeasured(comparisons, measurements);
        if (missing.isEmpty() && failures.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nNot in the table (not measured in this run):\n");
        for (Comparison comparison : missing) {
            out.append("- ").append(comparison.label());
            if (comparison.baselineLabel() != null) {
                out.append(" vs ").append(comparison.baselineLabel());
            }
            out.append(" (").append(comparison.subjectKey());
            if (comparison.baselineKey() != null) {
                out.append(" / ").append(comparison.baselineKey());
            }
            out.append(")\n");
        }
        for (String failure : failures) {
            out.append("- ").append(failure).append('\n');
        }
        return out.toString();
    }

    private static void progress(Instant start, String message) {
        System.err.println("[benchmarks " + minutes(Duration.between(start, Instant.now())) + "] " + message);
    }

    private static String minutes(Duration duration) {
        return String.format("%d:%02d min", duration.toMinutes(), duration.toSecondsPart());
    }
}
