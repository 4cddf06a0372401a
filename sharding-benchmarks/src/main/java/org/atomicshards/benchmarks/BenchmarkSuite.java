package org.atomicshards.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.atomicshards.benchmarks.report.GroupResult;
import org.atomicshards.benchmarks.report.Measurements;
import org.atomicshards.benchmarks.report.ResultsWriter;
import org.atomicshards.benchmarks.report.RunInfo;
import org.atomicshards.benchmarks.report.Section;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * The one benchmark command: runs the selected {@link SuiteGroup}s with JMH and the probes ({@link HeapProbes},
 * {@link ScaleProbes}, {@link MoveProbes}), then writes each group's results, charts included, into the
 * documentation ({@link ResultsWriter}), merged with the results of the groups this run did not run.
 *
 * <p>Usage: {@code BenchmarkSuite [outputDirectory] [--only=<group regex>] [--docs=<directory>]}. Groups that need a
 * PostgreSQL server ({@code pg-...}) run only when the pattern names them, never under the default {@code .*}; a
 * pattern that selects no group fails the command. The output directory (default {@code target/benchmarks}) receives
 * JMH's logs and JSON results and the probes' logs; the docs directory (default: the output directory; the Maven
 * profile passes the repository's {@code docs/benchmarks}) receives {@code results.md}, {@code archive.md} and the
 * charts.
 */
public final class BenchmarkSuite {

    private BenchmarkSuite() {
    }

    public static void main(String[] args) throws IOException, InterruptedException, RunnerException {
        Path output = Path.of("target", "benchmarks");
        Path docs = null;
        Pattern only = Pattern.compile(SuiteGroup.ALL);
        for (String arg : args) {
            if (arg.startsWith("--only=")) {
                only = Pattern.compile(arg.substring("--only=".length()));
            } else if (arg.startsWith("--docs=")) {
                docs = Path.of(arg.substring("--docs=".length()));
            } else {
                output = Path.of(arg);
            }
        }
        docs = docs == null ? output : docs;
        Files.createDirectories(output);
        Instant start = Instant.now();
        String loadAtStart = Machine.loadAverage();
        Optional<GitCommit> commit = GitCommit.of(Path.of("").toAbsolutePath());

        Measurements measurements = new Measurements();
        Map<String, List<String>> ran = new LinkedHashMap<>(); // group -> why figures are missing
        for (SuiteGroup group : SuiteGroup.all()) {
            if (!group.selectedBy(only)) {
                if (group.needsPostgres() && only.matcher(group.name()).matches()) {
                    progress(start, "not running " + group.name() + ": it needs a PostgreSQL server (see "
                            + "PostgresShards); run it with -Dbenchmarks.only='pg-.*'");
                }
                continue;
            }
            progress(start, "running " + group.name() + " (log: " + output.resolve(group.logName()) + ")");
            List<String> failures = new ArrayList<>();
            try {
                Collection<RunResult> results = group.interleavesForks()
                        ? new InterleavedForks(group, output, line -> progress(start, line)).run()
                        : new Runner(group.options(output)).run();
                JmhMeasurements.from(results).forEach(measurements::add);
            } catch (NoBenchmarksException e) {
                failures.add(group.name() + ": no benchmark in this build matches " + group.include());
            }
            ran.put(group.name(), failures);
        }
        if (only.matcher(HeapProbes.GROUP).matches()) {
            progress(start, "running " + HeapProbes.GROUP + " (logs in " + output + ")");
            List<String> failures = new ArrayList<>();
            new HeapProbes(output).runAll(failures).forEach(measurements::add);
            ran.put(HeapProbes.GROUP, failures);
        }
        if (only.matcher(ScaleProbes.GROUP).matches()) {
            progress(start, "running " + ScaleProbes.GROUP + " (logs in " + output + ")");
            List<String> failures = new ArrayList<>();
            new ScaleProbes(output).runAll(failures).forEach(measurements::add);
            ran.put(ScaleProbes.GROUP, failures);
        }
        if (MoveProbes.selectedBy(only)) {
            progress(start, "running " + MoveProbes.GROUP + " (log: " + output.resolve("move-probe.log") + ")");
            List<String> failures = new ArrayList<>();
            new MoveProbes(output).run(failures).forEach(measurements::add);
            ran.put(MoveProbes.GROUP, failures);
        }
        if (ran.isEmpty()) {
            System.err.println("error: --only=" + only.pattern() + " selects no group; the groups are "
                    + Catalogue.groups() + " (pg-... only when named)");
            System.exit(1);
        }
        progress(start, "done");

        RunInfo run = new RunInfo(start, Duration.between(start, Instant.now()), commit.map(GitCommit::hash).orElse(null),
                commit.map(GitCommit::dirty).orElse(false), Machine.cpuModel(), Machine.cores(), Machine.jdk(),
                Machine.os(), loadAtStart, Machine.loadAverage(), List.copyOf(ran.keySet()));
        List<GroupResult> results = ran.entrySet().stream()
                .map(group -> new GroupResult(group.getKey(), Catalogue.comparisonsOf(group.getKey()), group.getValue()))
                .toList();
        List<Section> sections = new ResultsWriter(docs, Catalogue.groups()).write(run, results, measurements);
        System.out.println();
        sections.forEach(section -> System.out.println(section.body()));
        System.out.println("Written to " + docs.resolve(ResultsWriter.RESULTS).toAbsolutePath().normalize()
                + " (with the charts beside it; replaced sections in " + ResultsWriter.ARCHIVE + ")");
    }

    private static void progress(Instant start, String message) {
        System.err.println("[benchmarks " + minutes(Duration.between(start, Instant.now())) + "] " + message);
    }

    private static String minutes(Duration duration) {
        return String.format("%d:%02d min", duration.toMinutes(), duration.toSecondsPart());
    }
}
