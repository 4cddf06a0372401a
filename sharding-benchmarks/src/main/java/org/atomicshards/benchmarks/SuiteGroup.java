package org.atomicshards.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * One JMH run of the suite: which benchmarks, and iteration settings short enough for a run of the whole suite in
 * about forty minutes on two cores, PostgreSQL's groups included, with warm-ups long enough for a slow machine. Each
 * side of a comparison runs in JVMs of its own: one fork per benchmark, or more where the JVMs of one side differ by
 * as much as the target's margin.
 *
 * @param name              the group's name, used for its log and JSON files
 * @param include           the JMH include pattern (a regular expression over benchmark names)
 * @param warmupIterations  warm-up iterations of {@code iterationSeconds} each
 * @param measurementIterations measured iterations of {@code iterationSeconds} each
 * @param heap              the forked JVMs' heap size, e.g. {@code "1g"}
 * @param allocationProfile whether to run JMH's GC profiler ({@code -prof gc})
 * @param threads           benchmark threads (JMH's {@code -t})
 * @param params            JMH parameters to set ({@code -p name=value}); empty for the benchmarks' defaults
 * @param needsPostgres     whether the group runs on a PostgreSQL server: such a group runs only when the suite's
 *                          {@code --only} pattern is not the catch-all {@code .*} and matches its name
 * @param forks             JVMs per benchmark; the score and its interval are taken over all their measured iterations
 *                          together. With more than one, the suite runs them in rounds, each benchmark of the group
 *                          once per round ({@link InterleavedForks}), so that a drift of the machine's speed over the
 *                          group's minutes falls on every side alike
 */
record SuiteGroup(String name, String include, int warmupIterations, int measurementIterations,
                  int iterationSeconds, String heap, boolean allocationProfile, int threads,
                  Map<String, String> params, boolean needsPostgres, int forks) {

    private static final String PACKAGE = "org.atomicshards.benchmarks.";
    /** No logging backend is on the class path on purpose; SLF4J need not say so in every forked JVM. */
    static final String QUIET_SLF4J = "-Dslf4j.internal.verbosity=ERROR";

    /** The {@code --only} pattern of a run that names no group: every group that needs nothing installed. */
    static final String ALL = ".*";

    /**
     * The system property (Maven property of the same name) that sets how many JVMs each side of the one-thread
     * unit of work on H2 gets; {@value #DEFAULT_UNIT_OF_WORK_JVMS} unless set.
     */
    static final String UNIT_OF_WORK_JVMS = "benchmarks.unitOfWorkJvms";
    static final int DEFAULT_UNIT_OF_WORK_JVMS = 3;

    /** The JMH parameter that puts the unit-of-work sides on PostgreSQL. */
    private static final Map<String, String> ON_POSTGRES = Map.of("backend", "POSTGRESQL");

    SuiteGroup {
        params = Map.copyOf(params);
    }

    private SuiteGroup(String name, String include, int warmupIterations, int measurementIterations,
                       int iterationSeconds, String heap, boolean allocationProfile) {
        this(name, include, warmupIterations, measurementIterations, iterationSeconds, heap, allocationProfile, 1,
                Map.of(), false, 1);
    }

    /** The suite's groups, with {@link #UNIT_OF_WORK_JVMS} JVMs a side for the one-thread unit of work on H2. */
    static List<SuiteGroup> all() {
        return all(unitOfWorkJvms(System.getProperty(UNIT_OF_WORK_JVMS, String.valueOf(DEFAULT_UNIT_OF_WORK_JVMS))));
    }

    /**
     * The JVMs a side that {@link #UNIT_OF_WORK_JVMS}'s {@code value} asks for.
     *
     * @throws IllegalArgumentException naming the property, unless {@code value} is a whole number of at least 1
     */
    static int unitOfWorkJvms(String value) {
        try {
            int jvms = Integer.parseInt(value.strip());
            if (jvms >= 1) {
                return jvms;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(UNIT_OF_WORK_JVMS + " must be a whole number of JVMs, at least 1, was '"
                + value + "'");
    }

    /** @param unitOfWorkJvms JVMs a side for the one-thread unit of work on H2 */
    static List<SuiteGroup> all(int unitOfWorkJvms) {
        String unitOfWork = benchmarks("unitofwork.UnitOfWorkBenchmark", "");
        return List.of(
                // Warm-ups long enough for a slow 2-vCPU machine: on one (2026-11-28) the unit of work's Atomic Shards
                // side was still speeding up 30 s in, and the fan-out and merge benchmarks after their 1 s or 2 s.
                // A figure still warming up when measured is reported as such (SteadyState), not judged. The unit of
                // work adds an order per operation: 3 GB keep a fast machine's data from filling the heap.
                // With 8 threads on 2 vCPUs the JIT's compiler threads get little CPU: on one machine (2026-11-29) both
                // sides were still climbing 40 s in (1,700 to 70,000 units of work per second), hence 80 s.
                // With one thread on H2, two JVMs of the same side differ by up to 4 % (on 2026-11-29 two JVMs of the
                // same code measured 0.964x each other), as much as the 0.95x target's margin: three forks a side
                // (on 2026-12-03, up to ±15 %: more decide the target, at some 65 s per JVM and side).
                new SuiteGroup("unit-of-work", unitOfWork, 25, 5, 2, "3g", false, 1, Map.of(), false,
                        unitOfWorkJvms),
                new SuiteGroup("unit-of-work-8-threads", unitOfWork, 40, 5, 2, "3g", false, 8, Map.of(), false, 1),
                new SuiteGroup("fan-out", benchmarks("fanout.FanOutLatencyBenchmark", ""), 8, 5, 1, "1g", false),
                new SuiteGroup("merge-limit", benchmarks("merge.MergeBenchmark", "firstHundred"), 12, 5, 1, "2g", true),
                new SuiteGroup("merge-stream", benchmarks("merge.MergeBenchmark", "stream"), 3, 3, 1, "2g", true),
                new SuiteGroup("routing", benchmarks("routing.RoutingThroughputBenchmark", ""), 5, 5, 1, "1g", false),
                new SuiteGroup("scale", benchmarks("scale.ScaleFanOutBenchmark", ""), 15, 5, 1, "2g", false),
                new SuiteGroup("index", benchmarks("index.IndexLookupBenchmark", ""), 8, 5, 1, "2g", false),
                new SuiteGroup("index-8-threads", benchmarks("index.IndexThroughputBenchmark", ""), 10, 5, 1, "2g",
                        false, 8, Map.of(), false, 1),
                new SuiteGroup("pg-unit-of-work", unitOfWork, 10, 5, 2, "3g", false, 1, ON_POSTGRES, true, 1),
                // With 8 threads on PostgreSQL the JIT shares the 2 vCPUs with 8 benchmark threads and the server: on
                // 2026-12-03 it compiled about 10 s of CPU time in every 10 s for the first 40 to 110 s of a JVM, and
                // every side was still climbing in its measured iterations after a 60 s warm-up: hence 150 s.
                new SuiteGroup("pg-unit-of-work-8-threads", unitOfWork, 75, 10, 2, "3g", false, 8, ON_POSTGRES, true,
                        1),
                new SuiteGroup("pg-fan-out", benchmarks("fanout.PostgresFanOutBenchmark", ""), 10, 5, 1, "1g", false,
                        1, Map.of(), true, 1),
                // needs a streaming standby of the PostgreSQL server (benchmarks.pg.replica.port, default 5433)
                new SuiteGroup("pg-replica", benchmarks("replica.ReplicaFanOutBenchmark", ""), 8, 5, 2, "1g", false,
                        1, Map.of(), true, 1),
                new SuiteGroup("pg-replica-8-threads", benchmarks("replica.ReplicaFanOutBenchmark", "fanOut"), 15, 5,
                        2, "1g", false, 8, Map.of(), true, 1));
    }

    /** Whether a run with this {@code --only} pattern runs this group. */
    boolean selectedBy(Pattern only) {
        return only.matcher(name).matches() && (!needsPostgres || !only.pattern().equals(ALL));
    }

    private static String benchmarks(String type, String methodPrefix) {
        return "^\\Q" + PACKAGE + type + "." + methodPrefix + "\\E";
    }

    /**
     * The heap, touched at start, quiet SLF4J, and the PostgreSQL server settings this JVM was given
     * ({@code benchmarks.pg.*}). Without the touch, the kernel's first-touch page faults as the heap fills took whole
     * iterations of the unit of work from 85,000 to 26,000 per second on a 2-vCPU machine (2026-11-29).
     */
    private String[] forkArguments() {
        List<String> arguments = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+AlwaysPreTouch",
                QUIET_SLF4J));
        for (String property : System.getProperties().stringPropertyNames()) {
            if (property.startsWith("benchmarks.pg.")) {
                arguments.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        return arguments.toArray(String[]::new);
    }

    /** Whether the suite runs the group's forks in rounds ({@link InterleavedForks}) rather than in one JMH run. */
    boolean interleavesForks() {
        return forks > 1;
    }

    /** The name of the group's JMH log, or the pattern of its rounds' logs when it {@link #interleavesForks}. */
    String logName() {
        return interleavesForks() ? "jmh-" + name + "-<round>-<method>.log" : "jmh-" + name + ".log";
    }

    /** The options of one JMH run of the whole group: every benchmark it includes, {@link #forks} JVMs each. */
    Options options(Path outputDirectory) {
        return options(outputDirectory, include, forks, name);
    }

    /**
     * The options of one round of an {@linkplain #interleavesForks interleaved} group: {@code benchmark} (a full
     * benchmark name) alone, in one JVM, its log and JSON named after the group, the round and the benchmark's method.
     */
    Options roundOptions(Path outputDirectory, String benchmark, int round) {
        String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        return options(outputDirectory, "^" + Pattern.quote(benchmark) + "$", 1, name + "-" + round + "-" + method);
    }

    private Options options(Path outputDirectory, String includePattern, int forkCount, String fileName) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(includePattern)
                .forks(forkCount)
                .threads(threads)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.seconds(iterationSeconds))
                .measurementIterations(measurementIterations)
                .measurementTime(TimeValue.seconds(iterationSeconds))
                .jvmArgs(forkArguments())
                .shouldFailOnError(false)
                .verbosity(VerboseMode.NORMAL)
                .output(outputDirectory.resolve("jmh-" + fileName + ".log").toString())
                .resultFormat(ResultFormatType.JSON)
                .result(outputDirectory.resolve("jmh-" + fileName + ".json").toString());
        params.forEach(options::param);
        if (allocationProfile) {
            options.addProfiler(GCProfiler.class);
        }
        return options.build();
    }
}
