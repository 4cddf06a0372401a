package org.atomicshards.hibernate.internal.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one scheduler every shard pool of a factory runs its HikariCP housekeeping on (closing idle connections,
 * refilling to the minimum idle, ending connections at their maximum lifetime, keep-alive checks), instead of a
 * housekeeping thread per pool: {@value #THREADS} daemon threads named {@code <prefix>housekeeper-<n>}, started when
 * the first pool starts. Two, so that a keep-alive check blocked on a silent shard's network (at most the validation
 * timeout) does not hold up the other shards' housekeeping.
 *
 * <p>The pools never shut it down (HikariCP leaves a scheduler it was given alone); {@link #close()} does, once the
 * pools are closed, and returns only when its threads have ended.
 */
final class PoolHousekeeping implements AutoCloseable {

    /** Housekeeping threads shared by all the pools. */
    static final int THREADS = 2;

    private static final long THREAD_END_WAIT_MILLIS = 5_000;

    private final String threadPrefix;
    private final List<Thread> threads = new ArrayList<>();
    private ScheduledThreadPoolExecutor executor;
    private boolean closed;

    /** @param namePrefix the start of the threads' names, e.g. {@code atomicshards-f1-} */
    PoolHousekeeping(String namePrefix) {
        this.threadPrefix = namePrefix + "housekeeper-";
    }

    /**
     * The scheduler, started on the first call.
     *
     * @throws IllegalStateException once closed, so that no pool starts housekeeping that nothing would stop
     */
    synchronized ScheduledExecutorService executor() {
        if (closed) {
            throw new IllegalStateException("The shard pools are closed");
        }
        if (executor == null) {
            // HikariCP's own: a task scheduled by a pool closing concurrently is dropped, not an exception, and the
            // tasks of a closed pool or connection leave the queue when cancelled.
            executor = new ScheduledThreadPoolExecutor(THREADS, this::newThread, new ThreadPoolExecutor.DiscardPolicy());
            executor.setRemoveOnCancelPolicy(true);
            executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
        }
        return executor;
    }

    private synchronized Thread newThread(Runnable task) {
        Thread thread = new Thread(task, threadPrefix + (threads.size() + 1));
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    }

    /** Stops the scheduler (a task it runs is interrupted) and waits up to 5 s for its threads to end. */
    @Override
    public void close() {
        List<Thread> started;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (executor == null) {
                return;
            }
            executor.shutdownNow();
            started = List.copyOf(threads);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(THREAD_END_WAIT_MILLIS);
        try {
            for (Thread thread : started) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) {
                    thread.join(left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
