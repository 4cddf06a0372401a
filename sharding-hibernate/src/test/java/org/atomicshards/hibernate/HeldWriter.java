package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A unit of work updating one user in its own thread ({@link AcknowledgedUsers#update}), held open after its work
 * (past the ownership fence, before its flush) until {@link #commit()} or until its hold time runs out: a writer that
 * is running while a move changes the fence.
 */
final class HeldWriter {

    private static final int UPDATE = 7;

    private final AcknowledgedUsers acknowledged;
    private final ShardedSessionFactory shards;
    private final long id;
    private final Duration hold;
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Thread thread;
    private volatile boolean heldOff = true;

    HeldWriter(AcknowledgedUsers acknowledged, ShardedSessionFactory shards, long id, Duration hold) {
        assertThat(id).as("a user to write").isNotNegative();
        this.acknowledged = acknowledged;
        this.shards = shards;
        this.id = id;
        this.hold = hold;
    }

    /** Starts the unit of work, once, and returns when it has passed the fence. */
    void enter() {
        if (thread != null) {
            return;
        }
        Thread writer = new Thread(() -> {
            try {
                acknowledged.update(shards, id, UPDATE, () -> {
                    entered.countDown();
                    await(release, hold);
                });
            } catch (RuntimeException | Error e) {
                failure.set(e);
            }
        }, "held-writer-" + id);
        thread = writer;
        writer.start();
        assertThat(await(entered, Duration.ofSeconds(10))).as("the writer entered").isTrue();
    }

    /**
     * A hook for {@link org.atomicshards.hibernate.internal.reshard.move.MoveFaults}: starts the writer at step
     * {@code enterAt}; at step {@code lostAfter}, after which its write would be lost, lets it commit and records that
     * the move did not wait for it if its write was not committed yet.
     */
    Consumer<String> across(String enterAt, String lostAfter) {
        return step -> {
            if (step.equals(enterAt)) {
                enter();
            }
            if (step.equals(lostAfter) && !committed()) {
                heldOff = false;
                commit();
            }
        };
    }

    /** Whether every move step passed to {@link #across} found the write committed when it got there. */
    boolean heldTheMoveOff() {
        return heldOff;
    }

    /** Whether its write is committed (read from the shards' live tables, not from the thread's progress). */
    private boolean committed() {
        return acknowledged.stored(id, UPDATE);
    }

    /** Lets the unit of work commit and waits for it; fails the test if it failed. */
    void commit() {
        release.countDown();
        Thread writer = thread;
        if (writer != null) {
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        assertThat(failure.get()).as("the held writer's unit of work").isNull();
    }

    private static boolean await(CountDownLatch latch, Duration timeout) {
        try {
            return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
