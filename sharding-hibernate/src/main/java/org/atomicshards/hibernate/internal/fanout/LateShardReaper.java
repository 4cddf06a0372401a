package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.atomicshards.hibernate.ShardId;

/**
 * Stops the shard queries a fan-out gave up on without making its caller wait. The statement is cancelled
 * ({@code Statement.cancel}) on a canceller thread, because a cancel is itself a network round trip that a silent
 * network can hold for seconds, and cancelled again until the task lets go (for at most {@link #CANCEL_PERIOD});
 * if the shard's task has still not let go of its connection {@link #ABORT_GRACE} later, the connection is aborted:
 * evicted from the pool and its socket closed, so the blocked task fails at once and the pool never hands out a
 * connection in an unknown state (H2's client cannot abort: its task ends when the network answers again).
 *
 * <p>Bounded: one timer thread and at most {@link #CANCELLERS} canceller threads (daemons, ended by
 * {@link #close()}); when every canceller is busy, the cancel is skipped and the abort still happens.
 */
final class LateShardReaper implements AutoCloseable {

    /** How long a cancelled shard query has to end by itself before its connection is aborted. */
    static final Duration ABORT_GRACE = Duration.ofMillis(500);
    static final int CANCELLERS = 4;
    /** How long the statement of an abandoned task is cancelled again and again until the task lets go. */
    static final Duration CANCEL_PERIOD = Duration.ofSeconds(5);
    private static final long CANCEL_RETRY_MILLIS = 20;

    /** Aborts a shard's connection; never throws. */
    interface ConnectionAborter {
        void abort(ShardId shard, Connection connection);
    }

    private final ConnectionAborter aborter;
    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor cancellers;

    LateShardReaper(ConnectionAborter aborter) {
        this.aborter = aborter;
        ThreadFactory threads = daemonThreads();
        this.timer = new ScheduledThreadPoolExecutor(1, threads);
        this.timer.setRemoveOnCancelPolicy(true);
        this.cancellers = new ThreadPoolExecutor(CANCELLERS, CANCELLERS, 10, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(64), threads, new ThreadPoolExecutor.DiscardPolicy());
        this.cancellers.allowCoreThreadTimeOut(true);
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "atomic-shards-fanout-reaper-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Cancels {@code cursor}'s statement in the background and aborts its connection unless {@code released}
     * turns true within {@link #ABORT_GRACE}. Returns at once.
     */
    void reap(ShardCursor cursor, BooleanSupplier released) {
        if (timer.isShutdown()) {
            return;
        }
        long giveUpAt = System.nanoTime() + CANCEL_PERIOD.toNanos();
        cancellers.execute(() -> cancelUntilReleased(cursor, released, giveUpAt));
        timer.schedule(() -> {
            if (!released.getAsBoolean()) {
                Connection connection = cursor.heldConnection();
                if (connection != null) {
                    aborter.abort(cursor.shard(), connection);
                }
            }
        }, ABORT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code action} on the reaper's timer after {@code nanos}; cancel the returned future to drop it. */
    ScheduledFuture<?> after(long nanos, Runnable action) {
        return timer.schedule(action, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Cancels again and again until the task lets go: a task may have been between opening its session and starting
     * its statement at the first cancel, and a JDBC cancel only reaches a statement that runs.
     */
    private static void cancelUntilReleased(ShardCursor cursor, BooleanSupplier released, long giveUpAt) {
        while (!released.getAsBoolean() && System.nanoTime() - giveUpAt < 0
                && !Thread.currentThread().isInterrupted()) {
            cursor.cancel();
            try {
                Thread.sleep(CANCEL_RETRY_MILLIS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs the pending aborts now and stops the threads. */
    @Override
    public void close() {
        timer.shutdown();
        cancellers.shutdown();
        try {
            timer.awaitTermination(ABORT_GRACE.toMillis() * 2, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cancellers.shutdownNow();
    }
}
