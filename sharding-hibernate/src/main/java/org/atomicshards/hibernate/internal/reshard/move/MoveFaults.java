package org.atomicshards.hibernate.internal.reshard.move;

import java.util.function.Consumer;

/**
 * A test hook: called with the name of each step of a move just before it takes effect, so a test can throw there and
 * play a crash. Steps: {@code before-copy}, {@code mid-copy}, {@code after-copy}, {@code after-verify},
 * {@code before-switch}, {@code after-switch}, {@code after-promote}, {@code mid-delete}, {@code after-release},
 * {@code before-disarm} (the operation is finished in the journal, its shards still armed). Not for production use.
 */
public final class MoveFaults {

    private static volatile Consumer<String> hook;

    private MoveFaults() {
    }

    /** Installs {@code stepHook}; null removes it. */
    public static void install(Consumer<String> stepHook) {
        hook = stepHook;
    }

    public static void at(String step) {
        Consumer<String> current = hook;
        if (current != null) {
            current.accept(step);
        }
    }
}
