package org.atomicshards.hibernate.internal.fanout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.FanOutQueryException;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardQueryFailedException;
import org.atomicshards.hibernate.ShardTimeoutException;

/**
 * Starts one query per target shard and waits for them: in parallel on the bounded executor, or one after the other
 * on the calling thread. Either way the timeout bounds the whole fan-out: at the deadline (counted from the call)
 * every shard that has not answered fails with a {@link ShardTimeoutException} and is abandoned. Under COMPLETE the
 * first failure abandons every shard still running and fails the query; under PARTIAL the failure is recorded and
 * the rest continue until the same deadline.
 *
 * <p>Never waits for an abandoned shard: its statement is cancelled and, if it does not end within
 * {@link LateShardReaper#ABORT_GRACE}, its connection is aborted, by the {@link LateShardReaper} in the background,
 * so a silent network cannot hold the caller past the deadline. Leaks nothing: every session opened by a task is
 * either handed over in the returned cursors or closed by the task itself once its statement has ended (at the
 * latest when its connection is aborted); an abandoned connection never goes back to the pool.
 */
final class ShardScatter {

    /** The work of one shard: open a cursor (registering it first so that it can be cancelled) and run it. */
    interface ShardTask {
        ShardCursor run(ShardId shard, Consumer<ShardCursor> register);
    }

    private final ExecutorService executor;
    private final LateShardReaper reaper;

    ShardScatter(ExecutorService executor, LateShardReaper reaper) {
        this.executor = executor;
        this.reaper = reaper;
    }

    /** Runs the task on every shard; the cursors are in target order (failed shards omitted, PARTIAL only). */
    List<ShardCursor> scatter(List<ShardId> targets, ShardTask task, Duration timeout, ExecutionPolicy policy,
                              List<ShardFailure> failures) {
        return executor == null ? sequential(targets, task, timeout, policy, failures)
                : parallel(targets, task, timeout, policy, failures);
    }

    /**
     * One shard after the other on the calling thread, within the same deadline as in parallel: a shard still
     * running at the deadline is cancelled (and its connection aborted) by the reaper and fails with a
     * {@link ShardTimeoutException}; shards not started by then fail the same way without running.
     */
    private List<ShardCursor> sequential(List<ShardId> targets, ShardTask task, Duration timeout,
                                         ExecutionPolicy policy, List<ShardFailure> failures) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ShardCursor> cursors = new ArrayList<>();
        for (ShardId shard : targets) {
            Throwable failure;
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                failure = new ShardTimeoutException(shard, timeout);
            }
            else {
                failure = runBeforeDeadline(shard, task, left, timeout, cursors);
            }
            if (failure != null) {
                failures.add(new ShardFailure(shard, failure));
                if (policy == ExecutionPolicy.COMPLETE) {
                    cursors.forEach(ShardCursor::close);
                    throw new ShardQueryFailedException(failures, targets.size());
                }
            }
        }
        return cursors;
    }

    /** Runs one shard's task, adding its cursor; the failure (a timeout if the deadline stopped it), or null. */
    private Throwable runBeforeDeadline(ShardId shard, ShardTask task, long nanosLeft, Duration timeout,
                                        List<ShardCursor> cursors) {
        AtomicReference<ShardCursor> registered = new AtomicReference<>();
        AtomicBoolean released = new AtomicBoolean();
        AtomicBoolean timedOut = new AtomicBoolean();
        ScheduledFuture<?> watchdog = reaper.after(nanosLeft, () -> {
            timedOut.set(true);
            ShardCursor running = registered.get();
            if (running != null && !released.get()) {
                reaper.reap(running, released::get);
            }
        });
        try {
            cursors.add(task.run(shard, registered::set));
            return null;
        }
        catch (RuntimeException | Error e) {
            ShardCursor running = registered.get();
            if (running != null) {
                running.close();
            }
            if (timedOut.get()) {
                ShardTimeoutException timeoutFailure = new ShardTimeoutException(shard, timeout);
                timeoutFailure.addSuppressed(e);
                return timeoutFailure;
            }
            return e;
        }
        finally {
            released.set(true);
            watchdog.cancel(false);
        }
    }

    private List<ShardCursor> parallel(List<ShardId> targets, ShardTask task, Duration timeout,
                                       ExecutionPolicy policy, List<ShardFailure> failures) {
        long deadline = System.nanoTime() + timeout.toNanos();
        LinkedBlockingQueue<Slot> finished = new LinkedBlockingQueue<>();
        List<Slot> slots = new ArrayList<>(targets.size());
        for (ShardId shard : targets) {
            Slot slot = new Slot(shard);
            slots.add(slot);
            try {
                slot.future = executor.submit(() -> slot.run(task, finished));
            }
            catch (RejectedExecutionException e) {
                slot.fail(new FanOutQueryException("The fan-out executor rejected the query for shard " + shard
                        + " (shut down or saturated)", e));
                slot.cleanedUp.countDown();
                finished.add(slot);
            }
        }
        int pending = slots.size();
        try {
            while (pending > 0) {
                Slot done = finished.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (done != null) {
                    if (done.counted) {
                        continue;
                    }
                    done.counted = true;
                    pending--;
                    if (done.error != null) {
                        failures.add(new ShardFailure(done.shard, done.error));
                        if (policy == ExecutionPolicy.COMPLETE) {
                            throw abort(slots, failures);
                        }
                    }
                    continue;
                }
                if (System.nanoTime() - deadline < 0) {
                    continue;
                }
                for (Slot slot : slots) {
                    if (!slot.counted) {
                        slot.abandon(reaper);
                        slot.counted = true;
                        pending--;
                        failures.add(new ShardFailure(slot.shard, new ShardTimeoutException(slot.shard, timeout)));
                    }
                }
                if (policy == ExecutionPolicy.COMPLETE) {
                    throw abort(slots, failures);
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.add(new ShardFailure(targets.get(0), new CancellationException("interrupted while waiting")));
            throw abort(slots, failures);
        }
        List<ShardCursor> cursors = new ArrayList<>();
        for (Slot slot : slots) {
            if (slot.result != null) {
                cursors.add(slot.result);
            }
        }
        return cursors;
    }

    private ShardQueryFailedException abort(List<Slot> slots, List<ShardFailure> failures) {
        for (Slot slot : slots) {
            slot.abandon(reaper);
        }
        return new ShardQueryFailedException(failures, slots.size());
    }

    /** One shard's task and its hand-over state. */
    private static final class Slot {
        final ShardId shard;
        final CountDownLatch cleanedUp = new CountDownLatch(1);
        volatile long startedAt;
        Future<?> future;
        ShardCursor registered;
        ShardCursor result;
        Throwable error;
        boolean abandoned;
        boolean counted;

        Slot(ShardId shard) {
            this.shard = shard;
        }

        void run(ShardTask task, LinkedBlockingQueue<Slot> finished) {
            ShardCursor cursor = null;
            try {
                synchronized (this) {
                    if (abandoned) {
                        return;
                    }
                    startedAt = System.nanoTime();
                }
                cursor = task.run(shard, this::register);
                synchronized (this) {
                    if (!abandoned) {
                        result = cursor;
                        cursor = null;
                    }
                }
            }
            catch (RuntimeException | Error e) {
                fail(e);
            }
            finally {
                ShardCursor toClose = cursor;
                synchronized (this) {
                    if (toClose == null && result == null && registered != null) {
                        toClose = registered;
                    }
                }
                if (toClose != null) {
                    toClose.close();
                }
                cleanedUp.countDown();
                finished.add(this);
            }
        }

        /** Called by the task once its session is open; an abandoned task stops here, before its statement. */
        private synchronized void register(ShardCursor cursor) {
            registered = cursor;
            if (abandoned) {
                throw new CancellationException("The fan-out query was abandoned before shard " + shard
                        + " started its statement");
            }
        }

        synchronized void fail(Throwable e) {
            error = e;
        }

        /**
         * Stops the shard without waiting for it: prevents a queued task from starting, closes a cursor already
         * handed over, and leaves a running statement to the reaper (cancel, then abort its connection).
         */
        void abandon(LateShardReaper reaper) {
            ShardCursor running;
            ShardCursor handedOver;
            boolean started;
            synchronized (this) {
                if (abandoned) {
                    return;
                }
                abandoned = true;
                running = registered;
                handedOver = result;
                result = null;
                started = startedAt != 0;
            }
            if (handedOver != null) {
                handedOver.close();
                return;
            }
            // A task that has not started never will (it sees the flag, or the future is cancelled): nothing to
            // clean up. A started one cleans up itself once its statement ends, at the latest when the reaper aborts
            // its connection; one still getting its connection stops at register().
            if (!started && future != null && future.cancel(false)) {
                cleanedUp.countDown();
            }
            if (running != null) {
                reaper.reap(running, () -> cleanedUp.getCount() == 0);
            }
        }
    }
}
