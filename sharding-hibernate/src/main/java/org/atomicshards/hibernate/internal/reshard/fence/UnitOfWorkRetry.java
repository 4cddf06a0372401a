package org.atomicshards.hibernate.internal.reshard.fence;

import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.reshard.journal.StoppedOperations;

/**
 * Runs a unit of work again when the fence turned it away before any user code ran: after refreshing the map for a
 * STALE rejection (once more at most, plus once per further map change), after a short sleep for a WAIT, until the
 * write pause is used up; then the unit of work fails with the retryable {@link ShardMovingException}.
 */
public final class UnitOfWorkRetry {

    private final CachedShardDirectory directory;
    private final long writePauseMillis;
    private final StoppedOperations stoppedOperations;

    /** @param stoppedOperations asked, once the write pause is used up, whether a stopped operation is the cause */
    public UnitOfWorkRetry(CachedShardDirectory directory, long writePauseMillis,
                           StoppedOperations stoppedOperations) {
        this.directory = directory;
        this.writePauseMillis = writePauseMillis;
        this.stoppedOperations = stoppedOperations;
    }

    /** Runs {@code attempt} (which routes afresh every time) until the fence lets it through. */
    public <R> R call(Supplier<R> attempt) {
        long deadline = System.nanoTime() + writePauseMillis * 1_000_000;
        int staleRetries = 0;
        int lastVersion = -1;
        int waits = 0;
        while (true) {
            try {
                return attempt.get();
            } catch (FenceRejection rejection) {
                if (rejection.reason() == FenceRejection.Reason.STALE) {
                    if (rejection.unit() != null) {
                        // the unit was moved alone: its recorded placement changed, the map did not
                        directory.forgetPlacement(rejection.unit().unitName(), rejection.unit().keyText());
                    }
                    int version = directory.refresh();
                    if (version != lastVersion) {
                        lastVersion = version;
                        staleRetries = 0;
                    }
                    if (++staleRetries <= 1) {
                        continue;
                    }
                }
                if (System.nanoTime() > deadline) {
                    String stopped = stoppedOperations.explain(MoveJournal.SWITCHED, rejection.bucket(), "which "
                            + "stopped after switching the virtual shard and before promoting it on its target: its "
                            + "writes wait");
                    throw new ShardMovingException("Virtual shard " + rejection.bucket() + " is being moved and "
                            + "shard '" + rejection.shard() + "' could not take the unit of work within "
                            + "atomicshards.resharding.write_pause_ms = " + writePauseMillis + " ms. Nothing was "
                            + "written and no code of the unit of work ran; "
                            + (stopped == null ? "run it again" : stopped), rejection.bucket());
                }
                try {
                    // backing off keeps waiting writers from contending with the mover for the frozen row's lock
                    Thread.sleep(rejection.reason() == FenceRejection.Reason.STALE ? 20 : Math.min(50, 5 << Math.min(4, waits++)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ShardMovingException("Interrupted while waiting for virtual shard " + rejection.bucket()
                            + " to finish moving; nothing was written", rejection.bucket());
                }
                if (rejection.reason() == FenceRejection.Reason.STALE) {
                    directory.refresh();
                }
            }
        }
    }
}
