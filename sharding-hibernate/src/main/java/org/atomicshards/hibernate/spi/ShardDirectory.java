package org.atomicshards.hibernate.spi;

import java.util.List;
import java.util.Optional;

import org.atomicshards.hibernate.ShardId;

/**
 * Read-only view of the shard directory (seed 004's shard metabase): the versioned virtual→physical map and the
 * per-unit placements of lookup and round-robin policies. Answers from the in-memory cache; thread-safe.
 */
public interface ShardDirectory {

    /** The version of the virtual→physical map in force; starts at 1 and grows with every map change. */
    int version();

    /** The fixed number of virtual shards. */
    int virtualShards();

    /** The physical shard owning {@code virtualShard}; never null. */
    ShardId shardOf(int virtualShard);

    /** The virtual shards owned by {@code shard}, ascending; empty if it owns none. */
    List<Integer> virtualShardsOf(ShardId shard);

    /** The physical shards owning at least one virtual shard, in topology order; never empty. */
    List<ShardId> owningShards();

    /**
     * The virtual shard recorded for the unit with this key under a lookup or round-robin policy.
     *
     * @param unitRoot the unit's root entity class
     * @return empty if the key was never placed
     */
    Optional<Integer> placementOf(Class<?> unitRoot, Object key);
}
