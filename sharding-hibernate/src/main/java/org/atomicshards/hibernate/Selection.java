package org.atomicshards.hibernate;

/**
 * How the key of a new atomic unit is mapped to a shard (seed 004's selection strategy).
 */
public enum Selection {
    /** A stable, well-mixed 64-bit hash of the key's value, modulo the virtual shard count. */
    HASH,
    /** An integral key modulo the virtual shard count (seed 004's "ID hash" / modulus mapping). */
    MODULO,
    /** Configured key ranges, each owned by one virtual shard. */
    RANGE,
    /** A consistent-hash ring of the physical shards with virtual nodes (seed 002). */
    CONSISTENT_HASH,
    /** Explicit placements stored in the shard directory (e.g. a tenant pinned to its own shard). */
    LOOKUP,
    /** New units spread over the virtual shards in turn; each placement is recorded in the directory. */
    ROUND_ROBIN,
    /** The key is a Snowflake id whose bits name its virtual shard; the key alone routes. */
    SNOWFLAKE
}
