package org.atomicshards.benchmarks.unitofwork;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Starts a side of a comparison in a JVM of its own, pinned to one CPU with Linux's {@code taskset}. */
final class PinnedJvm {

    private PinnedJvm() {
    }

    /**
     * Starts {@code main} with {@code args} on this JVM's class path, pinned to {@code cpu}, with a 1 GB heap; its
     * error output is discarded, its standard output is the caller's to read.
     */
    static Process start(int cpu, Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("taskset", "-c", Integer.toString(cpu),
                ProcessHandle.current().info().command().orElse("java"), "-Xmx1g", "-Dslf4j.internal.verbosity=ERROR",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
