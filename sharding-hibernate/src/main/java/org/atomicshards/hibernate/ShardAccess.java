package org.atomicshards.hibernate;

/** How the shards of one fan-out query are visited. */
public enum ShardAccess {

    /** All target shards at once, on the fan-out executor (bounded by {@link FanOutSettings#parallelism()}). */
    PARALLEL,

    /**
     * One shard after the other, on the calling thread, in topology order. No executor thread is used; the latency
     * is the sum of the shards' latencies. Useful inside a container that forbids thread hand-off, and for
     * debugging.
     */
    SEQUENTIAL
}
