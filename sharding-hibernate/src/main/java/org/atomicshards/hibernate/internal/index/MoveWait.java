package org.atomicshards.hibernate.internal.index;

import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * How one piece of index work treats the fence turning it away while virtual shards move: a shard that gave the virtual
 * shard away is left for the one a refreshed map names (a few times), one that is switching it is waited for (up to
 * 10 s, or not at all). Used by one thread.
 */
final class MoveWait {

    private static final long SWITCH_WAIT_NANOS = 10_000_000_000L;
    private static final int STALE_ATTEMPTS = 5;
    private static final long PAUSE_MILLIS = 20;

    private final CachedShardDirectory directory;
    private final long deadline;
    private int stale;

    /** @param mayWait whether to wait while a virtual shard switches, or give up at once */
    MoveWait(CachedShardDirectory directory, boolean mayWait) {
        this.directory = directory;
        this.deadline = System.nanoTime() + (mayWait ? SWITCH_WAIT_NANOS : 0);
    }

    /**
     * After {@code rejection}: refreshes the map, or pauses, and returns so the work runs again.
     *
     * @param what what the work does, for the message ("claim an entry of index ...")
     * @throws ShardMovingException when out of attempts or time; the work changed nothing
     */
    void beforeRetry(FenceRejection rejection, String what) {
        if (rejection.reason() == FenceRejection.Reason.STALE && ++stale < STALE_ATTEMPTS) {
            directory.refresh();
            return;
        }
        if (rejection.reason() == FenceRejection.Reason.WAIT && System.nanoTime() < deadline) {
            pause();
            return;
        }
        throw new ShardMovingException("Could not " + what + ": its virtual shard is moving to another shard. Nothing "
                + "was changed; run it again", rejection.bucket());
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShardMovingException("Interrupted while waiting for a moving virtual shard",
                    SelectionPolicy.NO_VIRTUAL_SHARD);
        }
    }
}
