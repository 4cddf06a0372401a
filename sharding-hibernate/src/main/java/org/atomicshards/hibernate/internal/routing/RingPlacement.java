package org.atomicshards.hibernate.internal.routing;

import java.util.List;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;

/**
 * CONSISTENT_HASH: the ring of physical shards recorded in the directory for the unit. When the directory's members
 * change (a member added or removed at run time, here or in another instance after a refresh) the ring is rebuilt
 * once; a lookup otherwise reads one volatile field and compares one reference.
 */
public final class RingPlacement implements KeyPlacement {

    private final CachedShardDirectory directory;
    private final String unitName;
    private final int nodesPerShard;
    private volatile Built built;

    private record Built(List<ShardId> members, ConsistentHashRing ring) {
    }

    public RingPlacement(CachedShardDirectory directory, String unitName, int nodesPerShard) {
        this.directory = directory;
        this.unitName = unitName;
        this.nodesPerShard = nodesPerShard;
        List<ShardId> members = directory.currentRingMembers(unitName);
        this.built = new Built(members, new ConsistentHashRing(members, nodesPerShard));
    }

    /** The ring in force. */
    public ConsistentHashRing ring() {
        Built current = built;
        List<ShardId> members = directory.currentRingMembers(unitName);
        if (members != current.members()) {
            current = new Built(members, new ConsistentHashRing(members, nodesPerShard));
            built = current;
        }
        return current.ring();
    }

    @Override
    public ShardId shardOf(Object key) {
        return ring().shardFor(key);
    }

    @Override
    public int virtualShardOf(Object key) {
        return -1;
    }
}
