package org.atomicshards.benchmarks;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs a group whose benchmarks each get several JVMs in rounds: each round runs every benchmark of the group once,
 * in one JVM, and each round runs them in the opposite order of the round before (A B C, then C B A, then A B C). JMH
 * itself runs all JVMs of one benchmark before the next benchmark's, so a machine whose speed drifts over the group's
 * minutes (on a 2-vCPU machine, 2026-12-03, the three plain Hibernate JVMs of one run measured 75,000, 66,000 and
 * 61,000 units of work per second) gives that drift to whichever side ran at the time. The rounds' results of one
 * benchmark are joined into one {@link RunResult}, whose score and interval JMH takes over all their measured
 * iterations, as it does for the JVMs of one run.
 */
final class InterleavedForks {

    private final SuiteGroup group;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    /** @param progress told of each JVM's start, as a line for the suite's progress output */
    InterleavedForks(SuiteGroup group, Path outputDirectory, Consumer<String> progress) {
        this.group = group;
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    /**
     * @return one result per benchmark (and parameter set) of the group, with {@link SuiteGroup#forks} JVMs each
     * @throws NoBenchmarksException if no benchmark of this build matches the group's include pattern
     */
    Collection<RunResult> run() throws RunnerException {
        List<String> benchmarks = benchmarks();
        Map<String, List<RunResult>> rounds = new LinkedHashMap<>();
        for (int round = 1; round <= group.forks(); round++) {
            for (String benchmark : inRoundOrder(benchmarks, round)) {
                progress.accept(group.name() + " round " + round + " of " + group.forks() + ": " + benchmark);
                for (RunResult result : new Runner(group.roundOptions(outputDirectory, benchmark, round)).run()) {
                    rounds.computeIfAbsent(JmhMeasurements.key(result.getParams()), k -> new ArrayList<>())
                            .add(result);
                }
            }
        }
        List<RunResult> joined = new ArrayList<>();
        for (List<RunResult> results : rounds.values()) {
            List<BenchmarkResult> forks = new ArrayList<>();
            results.forEach(result -> forks.addAll(result.getBenchmarkResults()));
            joined.add(new RunResult(results.get(0).getParams(), forks));
        }
        return joined;
    }

    /** {@code benchmarks} in the order round {@code round} (from 1) runs them: as given in odd rounds, reversed in even. */
    static List<String> inRoundOrder(List<String> benchmarks, int round) {
        List<String> order = new ArrayList<>(benchmarks);
        if (round % 2 == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    /** The full names of the benchmarks the group includes, in JMH's order. */
    private List<String> benchmarks() throws NoBenchmarksException {
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        List<String> names = BenchmarkList.defaultList()
                .find(OutputFormatFactory.createFormatInstance(silent, VerboseMode.SILENT), List.of(group.include()),
                        List.of())
                .stream().map(BenchmarkListEntry::getUsername).distinct().toList();
        if (names.isEmpty()) {
            throw new NoBenchmarksException();
        }
        return names;
    }
}
