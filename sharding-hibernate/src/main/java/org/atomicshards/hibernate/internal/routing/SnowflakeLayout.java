package org.atomicshards.hibernate.internal.routing;

/**
 * The bit layout of Snowflake ids: 41 bits of milliseconds since 2025-01-01T00:00Z (about 69 years), 10 bits of
 * virtual shard (so at most 1024 virtual shards), 5 bits of worker (the application instance) and 7 bits of
 * sequence within the millisecond. The sign bit stays 0, so ids are positive and grow with time.
 */
public final class SnowflakeLayout {

    /** Epoch of the timestamp bits, in Unix milliseconds (2025-01-01T00:00:00Z). */
    public static final long EPOCH_MILLIS = 1_735_689_600_000L;
    public static final int SEQUENCE_BITS = 7;
    public static final int WORKER_BITS = 5;
    public static final int VIRTUAL_SHARD_BITS = 10;
    public static final int MAX_VIRTUAL_SHARDS = 1 << VIRTUAL_SHARD_BITS;
    static final int WORKER_SHIFT = SEQUENCE_BITS;
    static final int VIRTUAL_SHARD_SHIFT = SEQUENCE_BITS + WORKER_BITS;
    static final int TIME_SHIFT = VIRTUAL_SHARD_SHIFT + VIRTUAL_SHARD_BITS;

    private SnowflakeLayout() {
    }

    /** Assembles an id. */
    public static long compose(long millisSinceEpoch, int virtualShard, int worker, int sequence) {
        return (millisSinceEpoch << TIME_SHIFT) | ((long) virtualShard << VIRTUAL_SHARD_SHIFT)
                | ((long) worker << WORKER_SHIFT) | sequence;
    }

    /** The virtual shard encoded in {@code id}. */
    public static int virtualShardOf(long id) {
        return (int) ((id >>> VIRTUAL_SHARD_SHIFT) & (MAX_VIRTUAL_SHARDS - 1));
    }

    /** The Unix time in milliseconds encoded in {@code id}. */
    public static long unixMillisOf(long id) {
        return (id >>> TIME_SHIFT) + EPOCH_MILLIS;
    }
}
