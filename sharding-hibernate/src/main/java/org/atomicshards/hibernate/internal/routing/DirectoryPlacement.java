package org.atomicshards.hibernate.internal.routing;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;

/**
 * LOOKUP and ROUND_ROBIN: the key's virtual shard is whatever the directory recorded when the unit was placed.
 * Round robin places new units on the physical shards in turn (on the next virtual shard of that shard); lookup
 * places them only through an explicit {@link #placeOn}.
 */
public final class DirectoryPlacement implements KeyPlacement {

    private final CachedShardDirectory directory;
    private final String unitName;
    private final boolean roundRobin;
    private final AtomicLong turn;

    public DirectoryPlacement(CachedShardDirectory directory, String unitName, boolean roundRobin) {
        this.directory = directory;
        this.unitName = unitName;
        this.roundRobin = roundRobin;
        this.turn = new AtomicLong(directory.placementCount(unitName));
    }

    @Override
    public ShardId shardOf(Object key) {
        Integer v = directory.placement(unitName, ShardKeys.text(key));
        return v == null ? null : directory.shardOf(v);
    }

    @Override
    public int virtualShardOf(Object key) {
        Integer v = directory.placement(unitName, ShardKeys.text(key));
        return v == null ? -1 : v;
    }

    @Override
    public boolean computed() {
        return false;
    }

    @Override
    public ShardId placeNew(Object key) {
        ShardId existing = shardOf(key);
        if (existing != null) {
            return existing;
        }
        if (!roundRobin) {
            throw new UnroutableKeyException("Unit " + unitName + " uses a LOOKUP policy and key " + key
                    + " has no placement yet. Fix: place it first with ShardedSessionFactory.place(" + unitName
                    + ".class, key, shard)");
        }
        long n = turn.getAndIncrement();
        List<ShardId> shards = directory.owningShards();
        ShardId shard = shards.get((int) (n % shards.size()));
        List<Integer> virtuals = directory.virtualShardsOf(shard);
        int virtual = virtuals.get((int) ((n / shards.size()) % virtuals.size()));
        return directory.shardOf(directory.place(unitName, ShardKeys.text(key), virtual));
    }

    /** Records that the unit with {@code key} lives on {@code shard} (on its first virtual shard). */
    public ShardId placeOn(Object key, ShardId shard) {
        List<Integer> virtuals = directory.virtualShardsOf(shard);
        if (virtuals.isEmpty()) {
            throw new UnroutableKeyException("Shard '" + shard + "' owns no virtual shard, so unit " + unitName
                    + " cannot be placed on it. Fix: assign it virtual shards in the directory first");
        }
        return directory.shardOf(directory.place(unitName, ShardKeys.text(key), virtuals.get(0)));
    }
}
