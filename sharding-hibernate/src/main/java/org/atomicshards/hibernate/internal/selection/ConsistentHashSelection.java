package org.atomicshards.hibernate.internal.selection;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.ConsistentHashRing;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.RingTransition;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * {@code consistent_hash}: a consistent-hash ring of the unit's ring members ({@link UnitTopology#ringMembers()},
 * recorded in the catalog) with {@code ring_nodes} nodes per shard (default 150). Keys map to physical shards
 * directly, without virtual shards; adding a member moves exactly the keys the new ring gives to it, removing one
 * moves only its keys ({@link #moves}).
 */
public final class ConsistentHashSelection implements SelectionPolicy {

    public static final String NAME = "consistent_hash";
    public static final String RING_NODES = "ring_nodes";
    public static final int DEFAULT_RING_NODES = Policy.DEFAULT_RING_NODES;

    private static final int MAX_RINGS = 8;

    private final int nodesPerShard;
    /** Rings built so far, by their members: the one in force, and those resharding asks about. */
    private final Map<List<ShardId>, ConsistentHashRing> rings = new ConcurrentHashMap<>();
    /** The last ring used and the list it was looked up with, so that the routing path skips the map. */
    private volatile Cached last;
    /** The same for the members a ring is changing to ({@link RingTransition#members()}). */
    private volatile Cached lastAfter;

    private record Cached(List<ShardId> members, ConsistentHashRing ring) {
    }

    /** The prototype, with the default node count. */
    public ConsistentHashSelection() {
        this(DEFAULT_RING_NODES);
    }

    public ConsistentHashSelection(int nodesPerShard) {
        this.nodesPerShard = nodesPerShard;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Ring positions per member shard. */
    public int nodesPerShard() {
        return nodesPerShard;
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return new ConsistentHashSelection(options.positiveInt(RING_NODES, DEFAULT_RING_NODES));
    }

    @Override
    public Map<String, String> options() {
        return Map.of(RING_NODES, String.valueOf(nodesPerShard));
    }

    @Override
    public void prepare(UnitTopology unit) {
        ring(unit.ringMembers(), false);
    }

    @Override
    public boolean usesVirtualShards() {
        return false;
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return NO_VIRTUAL_SHARD;
    }

    @Override
    public ShardId shardOf(Object key, UnitTopology unit) {
        RingTransition transition = unit.ringTransition(); // before the members: see UnitTopology.ringTransition
        ShardId owner = ring(unit.ringMembers(), false).shardFor(key);
        return transition == null ? owner : ownerDuring(transition, key, owner);
    }

    /**
     * While the unit's ring changes: the key's owner under the ring in force and under the ring it changes to (equal
     * when the key stays); null when the ring is not changing.
     */
    public ShardId[] ownersDuringChange(Object key, UnitTopology unit) {
        RingTransition transition = unit.ringTransition();
        if (transition == null) {
            return null;
        }
        return new ShardId[] {ring(unit.ringMembers(), false).shardFor(key),
                ring(transition.members(), true).shardFor(key)};
    }

    /** The owner of {@code key}, which the ring in force gives to {@code before}, while the ring changes. */
    private ShardId ownerDuring(RingTransition transition, Object key, ShardId before) {
        if (transition.switched().isEmpty()) {
            return before;
        }
        return transition.owner(before, ring(transition.members(), true).shardFor(key));
    }

    private ConsistentHashRing ring(List<ShardId> members, boolean after) {
        Cached cached = after ? lastAfter : last;
        if (cached != null && cached.members() == members) {
            return cached.ring();
        }
        if (rings.size() > MAX_RINGS) {
            rings.clear();
        }
        ConsistentHashRing ring = rings.computeIfAbsent(List.copyOf(members),
                m -> new ConsistentHashRing(m, nodesPerShard));
        if (after) {
            lastAfter = new Cached(members, ring);
        } else {
            last = new Cached(members, ring);
        }
        return ring;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConsistentHashSelection c && nodesPerShard == c.nodesPerShard;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(nodesPerShard);
    }

    @Override
    public String toString() {
        return NAME + "[" + nodesPerShard + " nodes per shard]";
    }
}
