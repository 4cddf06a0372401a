package org.atomicshards.hibernate.admin;

import java.util.List;

import org.atomicshards.hibernate.ShardId;

/**
 * {@link ShardAdmin#removeShard} refused: the shard still owns virtual shards, placements or a place in a
 * consistent-hash ring. Nothing was changed.
 */
public class ShardStillOwnsDataException extends ShardTopologyException {

    private static final long serialVersionUID = 1L;

    private final transient ShardId shard;
    private final transient List<Integer> virtualShards;
    private final long placements;
    private final transient List<String> ringUnits;

    public ShardStillOwnsDataException(String message, ShardId shard, List<Integer> virtualShards, long placements,
                                       List<String> ringUnits) {
        super(message);
        this.shard = shard;
        this.virtualShards = List.copyOf(virtualShards);
        this.placements = placements;
        this.ringUnits = List.copyOf(ringUnits);
    }

    /** The shard that was not removed. */
    public ShardId shard() {
        return shard;
    }

    /** The virtual shards it owns in the catalog's latest map, ascending. */
    public List<Integer> virtualShards() {
        return virtualShards;
    }

    /** The lookup / round-robin units placed on its virtual shards. */
    public long placements() {
        return placements;
    }

    /** The consistent-hash units whose ring it is a member of. */
    public List<String> ringUnits() {
        return ringUnits;
    }
}
