package org.atomicshards.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.atomicshards.benchmarks.merge.MergeBenchmark;
import org.atomicshards.benchmarks.report.Measurement;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

class JmhMeasurementsTest {

    private static final String BENCHMARK = "org.atomicshards.benchmarks.unitofwork.UnitOfWorkBenchmark.atomicShards";

    @Test
    void aRunWhoseMeasuredIterationsStillClimbIsNotSteady() {
        Measurement measured = only(run(10_800, 15_145, 20_572, 16_534, 15_678));

        assertThat(measured.key()).isEqualTo("UnitOfWorkBenchmark.atomicShards");
        assertThat(measured.steady()).isFalse();
    }

    @Test
    void aWarmRunIsSteady() {
        Measurement measured = only(run(24_516, 22_120, 21_570, 25_668, 25_243));

        assertThat(measured.steady()).isTrue();
        assertThat(measured.value()).isBetween(23_000.0, 24_000.0);
    }

    @Test
    void eachJvmIsJudgedOnItsOwnIterations() {
        // the first JVM ran slower throughout than the other two: JVMs differ, none was warming up
        Measurement jvmsDiffer = only(forks(new double[] {55_292, 56_601, 50_459, 53_591, 49_124},
                new double[] {70_312, 71_246, 69_027, 67_682, 67_199},
                new double[] {67_733, 70_673, 65_440, 56_961, 61_790}));
        // the second JVM was still climbing when measured
        Measurement oneClimbing = only(forks(new double[] {70_312, 71_246, 69_027, 67_682, 67_199},
                new double[] {50_000, 66_000, 69_000, 70_000, 71_000}));

        assertThat(jvmsDiffer.steady()).isTrue();
        assertThat(oneClimbing.steady()).isFalse();
    }

    @Test
    void anAllocationThatStillFallsInTheMeasuredIterationsIsNotSteadyNorIsItsShareOfEachRow() {
        List<Measurement> measured = JmhMeasurements.from(List.of(streamRun(
                new double[] {40_000_000, 12_100_000, 12_000_000, 11_900_000, 12_050_000})));

        assertThat(measured).extracting(Measurement::key).containsExactly("MergeBenchmark.stream[rowsPerShard=1000]",
                "MergeBenchmark.stream[rowsPerShard=1000]:alloc",
                "MergeBenchmark.stream[rowsPerShard=1000]:allocPerRow");
        assertThat(measured.get(0).steady()).isTrue();
        assertThat(measured.get(1).steady()).isFalse();
        assertThat(measured.get(2).steady()).isFalse();
    }

    @Test
    void aFlatAllocationIsSteadyAndIsSharedOverEveryShardsRows() {
        List<Measurement> measured = JmhMeasurements.from(List.of(streamRun(
                new double[] {12_000_000, 12_100_000, 12_000_000, 11_900_000, 12_050_000})));

        assertThat(measured.get(1).steady()).isTrue();
        assertThat(measured.get(2).steady()).isTrue();
        assertThat(measured.get(2).value())
                .isCloseTo(measured.get(1).value() / (MergeBenchmark.SHARDS * 1000.0), within(0.001));
    }

    private static Measurement only(RunResult run) {
        List<Measurement> measurements = JmhMeasurements.from(List.of(run));
        assertThat(measurements).hasSize(1);
        return measurements.get(0);
    }

    /** A one-fork throughput run whose measured iterations scored {@code opsPerSecond}, one second each. */
    private static RunResult run(double... opsPerSecond) {
        return forks(opsPerSecond);
    }

    /** A throughput run of one fork per array, whose measured iterations scored the array's values, one second each. */
    private static RunResult forks(double[]... opsPerSecondPerFork) {
        List<BenchmarkResult> forks = new ArrayList<>();
        BenchmarkParams params = null;
        for (double[] opsPerSecond : opsPerSecondPerFork) {
            List<List<Result<?>>> iterations = new ArrayList<>();
            for (double ops : opsPerSecond) {
                iterations.add(List.of(new ThroughputResult(ResultRole.PRIMARY, "atomicShards", ops,
                        TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS)));
            }
            RunResult fork = oneForkRun(BENCHMARK, Mode.Throughput, new WorkloadParams(), TimeUnit.SECONDS,
                    iterations);
            params = fork.getParams();
            forks.addAll(fork.getBenchmarkResults());
        }
        return new RunResult(params, forks);
    }

    /**
     * A one-fork average-time run of the merge's streaming benchmark over 1,000 rows per shard, steady in time, whose
     * measured iterations allocated {@code bytesPerOp} each, as JMH's GC profiler reports it.
     */
    private static RunResult streamRun(double[] bytesPerOp) {
        WorkloadParams workload = new WorkloadParams();
        workload.put("rowsPerShard", "1000", 0);
        List<List<Result<?>>> iterations = new ArrayList<>();
        for (double bytes : bytesPerOp) {
            iterations.add(List.of(
                    new AverageTimeResult(ResultRole.PRIMARY, "stream", 100, TimeUnit.MILLISECONDS.toNanos(200),
                            TimeUnit.MILLISECONDS),
                    new ScalarResult(JmhMeasurements.ALLOCATION_PER_OP, bytes, "B/op", AggregationPolicy.AVG)));
        }
        return oneForkRun("org.atomicshards.benchmarks.merge.MergeBenchmark.stream", Mode.AverageTime, workload,
                TimeUnit.MILLISECONDS, iterations);
    }

    /** A run of one fork whose measured iterations (one second each) gave these results, in order. */
    private static RunResult oneForkRun(String benchmark, Mode mode, WorkloadParams workload, TimeUnit unit,
                                        List<List<Result<?>>> resultsPerIteration) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, resultsPerIteration.size(),
                TimeValue.seconds(1), 1);
        BenchmarkParams params = new BenchmarkParams(benchmark, benchmark + "_jmhTest", false, 1, new int[] {1},
                List.of(), 1, 0, warmup, measurement, mode, workload, unit, 1,
                "java", List.of(), "17", "vm", "17", "1.37", TimeValue.minutes(1));
        List<IterationResult> iterations = new ArrayList<>();
        for (List<Result<?>> results : resultsPerIteration) {
            IterationResult iteration = new IterationResult(params, measurement, new IterationResultMetaData(0, 0));
            results.forEach(iteration::addResult);
            iterations.add(iteration);
        }
        return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
    }
}
