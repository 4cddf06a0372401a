package org.atomicshards.hibernate.internal.routing;

import org.atomicshards.hibernate.ShardId;

/**
 * Maps an already checked key of one unit to its physical shard. Implementations are immutable except for the
 * directory-backed ones, which read the directory's in-memory cache; none queries the catalog for a known key.
 */
public interface KeyPlacement {

    /**
     * The shard owning {@code key}, or null when the policy records placements and this key was never placed.
     */
    ShardId shardOf(Object key);

    /**
     * The shard a new unit with this key goes to, recording the placement first when the policy keeps placements.
     */
    default ShardId placeNew(Object key) {
        return shardOf(key);
    }

    /** Whether this placement is computed from the key alone (no recorded placements). */
    default boolean computed() {
        return true;
    }

    /** The virtual shard of {@code key}, or -1 when the policy has no virtual shards (consistent hash). */
    int virtualShardOf(Object key);
}
