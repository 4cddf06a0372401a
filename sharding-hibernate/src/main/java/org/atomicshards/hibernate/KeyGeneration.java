package org.atomicshards.hibernate;

/**
 * Who produces the shard key of a new atomic unit (seed 004's key generation strategy).
 */
public enum KeyGeneration {
    /** The application assigns the key before persisting the root. */
    APPLICATION,
    /** Integers allocated in blocks from the shard directory, unique across all shards. */
    SEQUENCE,
    /** Time-ordered (version 7) UUIDs. */
    TIME_ORDERED_UUID,
    /** Snowflake-style longs: time, virtual shard, worker and sequence bits. */
    SNOWFLAKE
}
