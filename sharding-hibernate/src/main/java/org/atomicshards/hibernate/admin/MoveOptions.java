package org.atomicshards.hibernate.admin;

import java.time.Duration;
import java.util.Objects;

/**
 * How a move runs. Immutable; start from {@link #defaults()} and change what you need.
 *
 * <pre>{@code
 * admin.move(Set.of(0, 1, 2), ShardId.of("s1"), MoveOptions.defaults().virtualShardsPerBatch(2).listener(System.out::println));
 * }</pre>
 */
public final class MoveOptions {

    private final int virtualShardsPerBatch;
    private final int unitsPerChunk;
    private final Duration freezeTimeout;
    private final Duration lease;
    private final int freezeAttempts;
    private final MoveProgress.Listener listener;

    private MoveOptions(int virtualShardsPerBatch, int unitsPerChunk, Duration freezeTimeout, Duration lease,
                        int freezeAttempts, MoveProgress.Listener listener) {
        if (virtualShardsPerBatch < 1) {
            throw new IllegalArgumentException("virtualShardsPerBatch is " + virtualShardsPerBatch
                    + "; it must be at least 1");
        }
        if (unitsPerChunk < 1 || unitsPerChunk > 1000) {
            throw new IllegalArgumentException("unitsPerChunk is " + unitsPerChunk + "; it must be 1 to 1000");
        }
        if (freezeAttempts < 1) {
            throw new IllegalArgumentException("freezeAttempts is " + freezeAttempts + "; it must be at least 1");
        }
        this.virtualShardsPerBatch = virtualShardsPerBatch;
        this.unitsPerChunk = unitsPerChunk;
        this.freezeTimeout = Objects.requireNonNull(freezeTimeout, "freezeTimeout");
        this.lease = Objects.requireNonNull(lease, "lease");
        this.freezeAttempts = freezeAttempts;
        this.listener = listener;
    }

    /** 4 virtual shards per batch, 200 units per chunk, a 2 s freeze timeout, a 60 s lease, 3 freeze attempts. */
    public static MoveOptions defaults() {
        return new MoveOptions(4, 200, Duration.ofSeconds(2), Duration.ofSeconds(60), 3, null);
    }

    /** How many virtual shards switch together: the write pause of a batch grows with the units they hold. */
    public MoveOptions virtualShardsPerBatch(int count) {
        return new MoveOptions(count, unitsPerChunk, freezeTimeout, lease, freezeAttempts, listener);
    }

    /** How many units are read and written per statement round (at most 1000). */
    public MoveOptions unitsPerChunk(int count) {
        return new MoveOptions(virtualShardsPerBatch, count, freezeTimeout, lease, freezeAttempts, listener);
    }

    /** How long the freeze waits for running units of work before it gives up and copies on. */
    public MoveOptions freezeTimeout(Duration timeout) {
        return new MoveOptions(virtualShardsPerBatch, unitsPerChunk, timeout, lease, freezeAttempts, listener);
    }

    /**
     * How long this instance holds the operation after its last step; once it lapses (the instance died), any
     * instance's {@link ShardAdmin#resume()} takes the operation over.
     */
    public MoveOptions lease(Duration duration) {
        return new MoveOptions(virtualShardsPerBatch, unitsPerChunk, freezeTimeout, duration, freezeAttempts, listener);
    }

    /** How many times a batch is frozen and verified before the move stops with the mismatch recorded. */
    public MoveOptions freezeAttempts(int attempts) {
        return new MoveOptions(virtualShardsPerBatch, unitsPerChunk, freezeTimeout, lease, attempts, listener);
    }

    /** Receives progress snapshots; null for none. */
    public MoveOptions listener(MoveProgress.Listener progressListener) {
        return new MoveOptions(virtualShardsPerBatch, unitsPerChunk, freezeTimeout, lease, freezeAttempts,
                progressListener);
    }

    public int virtualShardsPerBatch() {
        return virtualShardsPerBatch;
    }

    public int unitsPerChunk() {
        return unitsPerChunk;
    }

    public Duration freezeTimeout() {
        return freezeTimeout;
    }

    public Duration lease() {
        return lease;
    }

    public int freezeAttempts() {
        return freezeAttempts;
    }

    /** The listener, or null. */
    public MoveProgress.Listener listener() {
        return listener;
    }
}
