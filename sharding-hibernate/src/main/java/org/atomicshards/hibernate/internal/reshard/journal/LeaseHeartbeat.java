package org.atomicshards.hibernate.internal.reshard.journal;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;

/**
 * Keeps a run's lease on its operation alive however long its steps take: renews it every third of the lease, on a
 * daemon thread of its own, and takes the run for lost once a renewal finds another run holding the operation (or the
 * operation ended), or once no renewal succeeded for a whole lease (the catalog out of reach: another instance may
 * claim the operation as soon as the lease lapses). The run asks {@link #ensureHeld} before each step; a run paused
 * with its heartbeat (a long garbage collection, a stopped process) renews there before it acts. Thread-safe.
 */
public final class LeaseHeartbeat implements AutoCloseable {

    private final MoveJournal journal;
    private final String moveId;
    private final String token;
    private final Duration lease;
    private final ScheduledExecutorService timer;
    private volatile long renewedAtNanos = System.nanoTime();
    private volatile String lostBecause;

    private LeaseHeartbeat(MoveJournal journal, String moveId, String token, Duration lease) {
        this.journal = journal;
        this.moveId = moveId;
        this.token = token;
        this.lease = lease;
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "atomicshards-lease-" + moveId);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts renewing the lease of the run {@code token}, which has just claimed or created {@code moveId}. */
    public static LeaseHeartbeat start(MoveJournal journal, String moveId, String token, Duration lease) {
        LeaseHeartbeat heartbeat = new LeaseHeartbeat(journal, moveId, token, lease);
        long period = Math.max(10, lease.toMillis() / 3);
        heartbeat.timer.scheduleWithFixedDelay(heartbeat::beat, period, period, TimeUnit.MILLISECONDS);
        return heartbeat;
    }

    /**
     * Returns if the run still holds its operation: renewed less than half a lease ago (so no other run can have
     * claimed it), or renewed now.
     *
     * @throws OperationLost if another run holds the operation, it ended, or the lease could not be renewed for a
     *         whole lease
     */
    public void ensureHeld() {
        if (lostBecause == null && System.nanoTime() - renewedAtNanos >= lease.toNanos() / 2) {
            beat();
        }
        String why = lostBecause;
        if (why != null) {
            throw new OperationLost(moveId, token, why);
        }
    }

    /**
     * Renews the lease now and returns only if this renewal succeeded: the run held its operation at a moment after
     * every step it took before the call.
     *
     * @throws OperationLost if another run holds the operation, it ended, or the catalog could not be reached
     */
    public void confirm() {
        long asked = System.nanoTime();
        beat();
        ensureHeld();
        if (renewedAtNanos - asked < 0) {
            throw new OperationLost(moveId, token, "its lease could not be renewed just now");
        }
    }

    private synchronized void beat() {
        if (lostBecause != null) {
            return;
        }
        long asked = System.nanoTime();
        try {
            MoveFaults.at("heartbeat");
            if (journal.renew(moveId, token, Instant.now().plus(lease))) {
                renewedAtNanos = asked;
            } else {
                lostBecause = "another run holds it now, or it ended";
            }
        } catch (RuntimeException e) {
            if (asked - renewedAtNanos >= lease.toNanos()) {
                lostBecause = "its lease could not be renewed for " + lease.toMillis() + " ms (" + e.getMessage()
                        + "), so another run may hold it";
            }
        }
    }

    /** Stops renewing: the run ended, or stopped. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
