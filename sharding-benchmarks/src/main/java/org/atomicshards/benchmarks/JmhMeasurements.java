package org.atomicshards.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

import org.atomicshards.benchmarks.merge.MergeBenchmark;
import org.atomicshards.benchmarks.report.Measurement;
import org.atomicshards.benchmarks.report.SteadyState;
import org.atomicshards.benchmarks.report.Unit;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** Turns JMH run results into keyed {@link Measurement}s (see {@link Catalogue} for the key format). */
final class JmhMeasurements {

    /** The secondary result of JMH's GC profiler: bytes allocated per benchmark operation. */
    static final String ALLOCATION_PER_OP = "gc.alloc.rate.norm";

    private JmhMeasurements() {
    }

    static List<Measurement> from(Collection<RunResult> results) {
        List<Measurement> measurements = new ArrayList<>();
        for (RunResult run : results) {
            String key = key(run.getParams());
            Result<?> primary = run.getPrimaryResult();
            Unit unit = Unit.fromJmh(primary.getScoreUnit());
            measurements.add(new Measurement(key, primary.getScore(), error(primary), unit,
                    everyForkSteady(run, null, unit.higherIsBetter())));
            Result<?> allocation = run.getSecondaryResults().get(ALLOCATION_PER_OP);
            if (allocation != null) {
                boolean steady = everyForkSteady(run, ALLOCATION_PER_OP, false);
                measurements.add(new Measurement(key + ":alloc", allocation.getScore(), error(allocation),
                        Unit.BYTES_PER_OP, steady));
                String rows = run.getParams().getParam("rowsPerShard");
                if (rows != null && run.getParams().getBenchmark().contains(".stream")) {
                    double streamed = (double) MergeBenchmark.SHARDS * Long.parseLong(rows);
                    measurements.add(new Measurement(key + ":allocPerRow", allocation.getScore() / streamed,
                            error(allocation) / streamed, Unit.BYTES_PER_ROW, steady));
                }
            }
        }
        return measurements;
    }

    /**
     * {@code SimpleClassName.method[param=value,...]}, parameters sorted by name, followed by {@code @threads=n} when
     * more than one thread ran it.
     */
    static String key(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        int method = benchmark.lastIndexOf('.');
        int type = benchmark.lastIndexOf('.', method - 1);
        StringBuilder key = new StringBuilder(benchmark.substring(type + 1));
        TreeMap<String, String> values = new TreeMap<>();
        for (String name : params.getParamsKeys()) {
            values.put(name, params.getParam(name));
        }
        if (!values.isEmpty()) {
            key.append('[');
            values.forEach((name, value) -> key.append(name).append('=').append(value).append(','));
            key.setCharAt(key.length() - 1, ']');
        }
        if (params.getThreads() > 1) {
            key.append("@threads=").append(params.getThreads());
        }
        return key.toString();
    }

    /**
     * Whether every fork (JVM) of {@code run} had warmed up when measured ({@link SteadyState}), each judged on its own
     * iterations: the primary result's, or the named secondary result's ({@code null}: the primary). Forks are not
     * judged together: the first JVM's first iteration against the other JVMs' says how much JVMs differ, not whether
     * one was still warming up.
     */
    static boolean everyForkSteady(RunResult run, String secondary, boolean higherIsBetter) {
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            if (!SteadyState.reached(iterationScores(fork, secondary), higherIsBetter)) {
                return false;
            }
        }
        return true;
    }

    /** One fork's measured iterations' scores, in the order they ran. */
    private static List<Double> iterationScores(BenchmarkResult fork, String secondary) {
        List<Double> scores = new ArrayList<>();
        for (IterationResult iteration : fork.getIterationResults()) {
            Result<?> result = secondary == null ? iteration.getPrimaryResult()
                    : iteration.getSecondaryResults().get(secondary);
            if (result != null) {
                scores.add(result.getScore());
            }
        }
        return scores;
    }

    private static double error(Result<?> result) {
        double error = result.getScoreError();
        return Double.isFinite(error) ? error : Double.NaN;
    }
}
