package org.atomicshards.hibernate.internal.routing;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * One unit's configured {@link SelectionPolicy} bound to the unit's topology in force: what the session factory, the
 * guard and the id generators ask where a key lives. Keys passed here have been checked by the unit's routing.
 */
public final class UnitPlacement {

    private final SelectionPolicy policy;
    private final UnitTopology topology;

    /** Binds {@code policy} to {@code topology} and runs the policy's one-time {@link SelectionPolicy#prepare}. */
    public static UnitPlacement prepare(SelectionPolicy policy, UnitTopology topology) {
        policy.prepare(topology);
        return new UnitPlacement(policy, topology);
    }

    private UnitPlacement(SelectionPolicy policy, UnitTopology topology) {
        this.policy = policy;
        this.topology = topology;
    }

    public SelectionPolicy policy() {
        return policy;
    }

    public UnitTopology topology() {
        return topology;
    }

    /** The shard a new unit with this key goes to, recording the placement first when the policy records them. */
    public ShardId placeNew(Object key) {
        return policy.placeNew(key, topology);
    }

    /** The virtual shard of {@code key}, or {@link SelectionPolicy#NO_VIRTUAL_SHARD}. */
    public int virtualShardOf(Object key) {
        return policy.virtualShardOf(key, topology);
    }

    /** Whether the shard is computed from the key and virtual shards (so an id can encode the virtual shard). */
    public boolean computesVirtualShards() {
        return policy.usesVirtualShards() && !policy.recordsPlacements();
    }

    /**
     * Whether the unit is spread over ring members instead of virtual shards: the shard's ring fence row for the unit
     * fences its writes, and the map version a key was routed under tells the fence whether the router was up to date.
     */
    public boolean onRing() {
        return !policy.usesVirtualShards();
    }

    /** The version of the map in force; read it before routing a key, for the key's ring fence ({@link #onRing}). */
    public int mapVersion() {
        return topology.directory().version();
    }

    /** Whether the policy records placements (then {@link #placeOn} may be used). */
    public boolean recordsPlacements() {
        return policy.recordsPlacements();
    }

    /** The shards that may hold keys in the range, or empty when the policy cannot narrow it. */
    public Optional<Set<ShardId>> shardsForRange(Comparable<?> lower, boolean lowerInclusive,
                                                 Comparable<?> upper, boolean upperInclusive) {
        return policy.shardsForRange(lower, lowerInclusive, upper, upperInclusive, topology);
    }

    /**
     * Records that the unit with {@code key} lives on {@code shard} (on its first virtual shard), unless it is placed
     * already; for policies that {@linkplain #recordsPlacements record placements}.
     *
     * @return the shard the unit is recorded on afterwards
     */
    public ShardId placeOn(Object key, ShardId shard) {
        if (!policy.recordsPlacements()) {
            throw new IllegalStateException("Policy " + policy.name() + " computes the shard from the key");
        }
        List<Integer> virtuals = topology.directory().virtualShardsOf(shard);
        if (virtuals.isEmpty()) {
            throw new UnroutableKeyException("Shard '" + shard + "' owns no virtual shard, so unit "
                    + topology.unit().getName() + " cannot be placed on it. Fix: assign it virtual shards in the "
                    + "directory first");
        }
        return topology.directory().shardOf(topology.placements().place(key, virtuals.get(0)));
    }

    @Override
    public String toString() {
        return policy.toString();
    }
}
