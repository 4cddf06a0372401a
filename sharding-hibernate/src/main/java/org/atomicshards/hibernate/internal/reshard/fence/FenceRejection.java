package org.atomicshards.hibernate.internal.reshard.fence;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardId;

/**
 * Thrown by the fence when work cannot run on the shard it was routed to: a unit of work before any user code ran
 * (its transaction is rolled back and {@link UnitOfWorkRetry} runs it again), a session about to be opened for a key
 * (routed again), or a write or read in a session (turned into the retryable {@code ShardMovingException}). Never
 * reaches the application.
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
    private final FenceTarget unit;

    FenceRejection(Reason reason, ShardId shard, int bucket) {
        super("Shard '" + shard + "' " + (reason == Reason.STALE ? "does not own" : "is switching")
                + " virtual shard " + bucket);
        this.reason = reason;
        this.shard = shard;
        this.bucket = bucket;
        this.unit = null;
    }

    /** A rejection by the unit's own fence row: the unit alone moved away from, or is moving to, {@code shard}. */
    FenceRejection(Reason reason, ShardId shard, FenceTarget unit) {
        super("Shard '" + shard + "' " + (reason == Reason.STALE ? "no longer holds" : "is switching")
                + " unit " + unit.unitName() + " key " + unit.keyText());
        this.reason = reason;
        this.shard = shard;
        this.bucket = unit.bucket();
        this.unit = unit;
    }

    /** The unit whose own fence row turned the work away (it was moved alone), or null for its virtual shard's. */
    public FenceTarget unit() {
        return unit;
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
