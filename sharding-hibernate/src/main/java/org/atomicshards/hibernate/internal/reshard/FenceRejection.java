package org.atomicshards.hibernate.internal.reshard;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardId;

/**
 * Thrown by the fence when a unit of work cannot run on the shard it was routed to, before any user code ran; the
 * unit's transaction is rolled back and {@link UnitOfWorkRetry} runs it again. Never reaches the application.
 */
public final class FenceRejection extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    /** Why the unit of work was turned away. */
    public enum Reason {
        /** The shard does not own the virtual shard: the map used to route was old. */
        STALE,
        /** The virtual shard is being switched (frozen on the source, not yet promoted on the target). */
        WAIT
    }

    private final Reason reason;
    private final ShardId shard;
    private final int bucket;

    FenceRejection(Reason reason, ShardId shard, int bucket) {
        super("Shard '" + shard + "' " + (reason == Reason.STALE ? "does not own" : "is switching")
                + " virtual shard " + bucket);
        this.reason = reason;
        this.shard = shard;
        this.bucket = bucket;
    }

    public Reason reason() {
        return reason;
    }

    public ShardId shard() {
        return shard;
    }

    public int bucket() {
        return bucket;
    }
}
