package org.atomicshards.hibernate.internal.routing;

import org.atomicshards.hibernate.ShardId;

/** CONSISTENT_HASH: the ring of physical shards recorded in the directory for the unit. */
public final class RingPlacement implements KeyPlacement {

    private final ConsistentHashRing ring;

    public RingPlacement(ConsistentHashRing ring) {
        this.ring = ring;
    }

    @Override
    public ShardId shardOf(Object key) {
        return ring.shardFor(key);
    }

    @Override
    public int virtualShardOf(Object key) {
        return -1;
    }
}
