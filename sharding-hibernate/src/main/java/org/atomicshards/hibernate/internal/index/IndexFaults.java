package org.atomicshards.hibernate.internal.index;

import java.util.function.Consumer;

/**
 * A test hook: called with the name of each step of a unit of work's index changes, so a test can throw a
 * {@link Crash} there and play the death of the writer's process. Steps: {@code before-commit} (its claims are
 * committed, its own transaction not yet: the crash rolls the transaction back, and nothing the writer would do
 * afterwards happens) and {@code after-commit} (its transaction committed: the entries it let go of are left behind).
 * Not for production use.
 */
public final class IndexFaults {

    /** Thrown by a hook to play a crash at the step. */
    public static final class Crash extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public Crash(String step) {
            super("Crash injected at index step " + step);
        }
    }

    private static volatile Consumer<String> hook;

    private IndexFaults() {
    }

    /** Installs {@code stepHook}; null removes it. */
    public static void install(Consumer<String> stepHook) {
        hook = stepHook;
    }

    static void at(String step) {
        Consumer<String> current = hook;
        if (current != null) {
            current.accept(step);
        }
    }
}
