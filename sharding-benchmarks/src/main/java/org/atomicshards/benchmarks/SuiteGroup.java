package org.atomicshards.benchmarks;

import java.nio.file.Path;
import java.util.List;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One JMH run of the suite: which benchmarks, and the short iteration settings that keep the whole suite under
 * ten minutes on two cores. One fork per benchmark (each side in its own JVM).
 *
 * @param name              the group's name, used for its log and JSON files
 * @param include           the JMH include pattern (a regular expression over benchmark names)
 * @param warmupIterations  warm-up iterations of {@code iterationSeconds} each
 * @param measurementIterations measured iterations of {@code iterationSeconds} each
 * @param heap              the forked JVMs' heap size, e.g. {@code "1g"}
 * @param allocationProfile whether to run JMH's GC profiler ({@code -prof gc})
 */
record SuiteGroup(String name, String include, int warmupIterations, int measurementIterations,
                  int iterationSeconds, String heap, boolean allocationProfile) {

    private static final String PACKAGE = "org.atomicshards.benchmarks.";
    /** No logging backend is on the class path on purpose; SLF4J need not say so in every forked JVM. */
    static final String QUIET_SLF4J = "-Dslf4j.internal.verbosity=ERROR";

    static List<SuiteGroup> all() {
        return List.of(
                new SuiteGroup("unit-of-work", benchmarks("unitofwork.UnitOfWorkBenchmark", ""), 5, 5, 2, "1g", false),
                new SuiteGroup("fan-out", benchmarks("fanout.FanOutLatencyBenchmark", ""), 2, 5, 1, "1g", false),
                new SuiteGroup("merge-limit", benchmarks("merge.MergeBenchmark", "firstHundred"), 2, 5, 1, "2g", true),
                new SuiteGroup("merge-stream", benchmarks("merge.MergeBenchmark", "stream"), 1, 3, 1, "2g", true),
                new SuiteGroup("routing", benchmarks("routing.RoutingThroughputBenchmark", ""), 2, 3, 1, "1g", false));
    }

    private static String benchmarks(String type, String methodPrefix) {
        return "^\\Q" + PACKAGE + type + "." + methodPrefix + "\\E";
    }

    Options options(Path outputDirectory) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(include)
                .forks(1)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.seconds(iterationSeconds))
                .measurementIterations(measurementIterations)
                .measurementTime(TimeValue.seconds(iterationSeconds))
                .jvmArgs("-Xms" + heap, "-Xmx" + heap, QUIET_SLF4J)
                .shouldFailOnError(false)
                .verbosity(VerboseMode.NORMAL)
                .output(outputDirectory.resolve("jmh-" + name + ".log").toString())
                .resultFormat(ResultFormatType.JSON)
                .result(outputDirectory.resolve("jmh-" + name + ".json").toString());
        if (allocationProfile) {
            options.addProfiler(GCProfiler.class);
        }
        return options.build();
    }
}
