package org.atomicshards.hibernate.internal.reshard;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.atomicshards.hibernate.admin.MoveReport;

/**
 * Carries stopped resharding operations to completion without an operator ({@code
 * atomicshards.resharding.auto_resume}: {@code true} every one, {@code after_switch}, the default, those that hold
 * up traffic): at each topology refresh it starts {@link ShardAdminImpl#resumeOnRefresh} on a background thread of its
 * own, which takes over the operations whose run released them (it stopped) or whose lease lapsed (its process died);
 * an operation another live run holds is left to it. At most one resume runs at a
 * time in an instance, and after a resume that failed the next waits {@link #AFTER_FAILURE}. Instances racing for
 * one operation are kept apart by the journal's claim. Thread-safe.
 */
public final class AutoResume implements AutoCloseable {

    /** Which stopped operations an instance carries on by itself. */
    public enum Mode {
        /** None: only an explicit resume does. */
        OFF,
        /**
         * Those whose batch in progress holds up traffic (frozen, switched, or promoted and not yet released): until
         * they go on, writes to that batch wait and fail, or fan-outs fail.
         */
        AFTER_SWITCH,
        /** Every one. */
        ALL
    }

    static final Duration AFTER_FAILURE = Duration.ofMinutes(1);
    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");

    private final ShardAdminImpl admin;
    private final Mode mode;
    private final ExecutorService executor;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile Instant quietUntil = Instant.MIN;

    /** @param mode which stopped operations to carry on: {@link Mode#AFTER_SWITCH} or {@link Mode#ALL} */
    public AutoResume(ShardAdminImpl admin, String factoryName, Mode mode) {
        this.admin = admin;
        this.mode = mode;
        this.executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "atomicshards-" + factoryName + "-auto-resume");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts a resume in the background, unless one is running or the last one failed less than a minute ago. */
    public void onRefresh() {
        if (Instant.now().isBefore(quietUntil) || !running.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(this::resume);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            running.set(false);
        }
    }

    private void resume() {
        try {
            // nothing to do is the common case: two catalog reads, no shard read
            List<MoveReport> finished = admin.resumeOnRefresh(mode == Mode.AFTER_SWITCH);
            finished.forEach(report -> LOG.info(() -> "Resumed and finished operation " + report.operationId()
                    + " (" + report.units() + " units to shard '" + report.target() + "')"));
        } catch (RuntimeException e) {
            quietUntil = Instant.now().plus(AFTER_FAILURE);
            LOG.log(Level.WARNING, "Resuming a stopped resharding operation failed; trying again in "
                    + AFTER_FAILURE.toSeconds() + " s: " + e.getMessage());
        } finally {
            running.set(false);
        }
    }

    /** Stops taking new resumes; one running carries on to its end or its failure (which the journal records). */
    @Override
    public void close() {
        executor.shutdown();
    }
}
