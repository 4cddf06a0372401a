package org.atomicshards.hibernate.internal.selection;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * {@code round_robin}: new units go to the physical shards in turn (on the next virtual shard of that shard), and each
 * placement is recorded in the directory. The turn continues from the number of placements known at boot. Shards are
 * asked in parallel by default ({@link Access#PARALLEL}): a unit's shard says nothing about its neighbours'.
 */
public final class RoundRobinSelection extends OptionlessSelection {

    public static final String NAME = "round_robin";

    public RoundRobinSelection() {
        super(NAME);
    }

    /** The next turn, or -1 before the first placement of this unit in this instance. */
    private final AtomicLong turn = new AtomicLong(-1);

    /** A new instance per unit: each keeps its own turn. */
    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return new RoundRobinSelection();
    }

    @Override
    public Access defaultAccess() {
        return Access.PARALLEL;
    }

    @Override
    public void prepare(UnitTopology unit) {
        turn.set(unit.placements().count());
    }

    @Override
    public boolean recordsPlacements() {
        return true;
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return unit.placements().virtualShardOf(key);
    }

    @Override
    public ShardId placeNew(Object key, UnitTopology unit) {
        ShardId existing = shardOf(key, unit);
        if (existing != null) {
            return existing;
        }
        long n = turn.getAndIncrement();
        List<ShardId> shards = unit.directory().owningShards();
        ShardId shard = shards.get((int) (n % shards.size()));
        List<Integer> virtuals = unit.directory().virtualShardsOf(shard);
        int virtual = virtuals.get((int) ((n / shards.size()) % virtuals.size()));
        return unit.directory().shardOf(unit.placements().place(key, virtual));
    }
}
