package org.atomicshards.benchmarks.unitofwork;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Starts a side of a comparison in a JVM of its own, pinned to one CPU with Linux's {@code taskset}. */
final class PinnedJvm {

    /**
     * The child's maximum heap, 3 GB unless the system property {@code benchmarks.childHeap} says otherwise: every unit
     * of work adds an order to the side's in-memory databases, and with 1 GB a side ran out of room within about 100 s
     * of work (its rate fell tenfold as the collector took over). The heap is committed and touched at start, so that
     * no page fault of a growing heap lands in a side's turn.
     */
    static final String HEAP = System.getProperty("benchmarks.childHeap", "3g");

    private PinnedJvm() {
    }

    /**
     * Starts {@code main} with {@code args} on this JVM's class path, pinned to {@code cpu}, with a heap of
     * {@link #HEAP}; its error output is discarded, its standard output is the caller's to read.
     */
    static Process start(int cpu, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu),
                ProcessHandle.current().info().command().orElse("java"), "-Xms" + HEAP, "-Xmx" + HEAP,
                "-XX:+AlwaysPreTouch", "-Dslf4j.internal.verbosity=ERROR", "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
