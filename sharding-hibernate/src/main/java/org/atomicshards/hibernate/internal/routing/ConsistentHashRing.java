package org.atomicshards.hibernate.internal.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import org.atomicshards.hibernate.ShardId;

/**
 * A consistent-hash ring (seed 002): each shard is placed at {@code nodesPerShard} positions
 * {@code hash(shardId + "-vnode-" + i)}. A key is looked up with multi-probe consistent hashing (Appleton and
 * O'Reilly, 2015): its hash is re-mixed into {@value #PROBES} probe positions, and the key belongs to the ring node
 * that follows one of its probes most closely (clockwise, wrapping around). With one probe this is the classic ring;
 * several probes even out the arc lengths that random node positions leave, which keeps the max/min load of 150
 * nodes per shard within a few percent instead of about 15%.
 *
 * <p>The consistent-hashing guarantees hold for any number of probes: adding a shard moves only keys whose closest
 * node becomes one of the new shard's (about K/(N+1) of them), and removing a shard moves only that shard's keys.
 * Immutable: {@link #with} and {@link #without} return new rings. A lookup is {@value #PROBES} binary searches over a
 * sorted array, with no allocation.
 */
public final class ConsistentHashRing {

    /** Probe positions per key. */
    public static final int PROBES = 8;

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private final int nodesPerShard;
    private final List<ShardId> members;
    private final long[] positions;
    private final ShardId[] owners;

    public ConsistentHashRing(Collection<ShardId> shards, int nodesPerShard) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("A ring needs at least one shard");
        }
        if (nodesPerShard < 1) {
            throw new IllegalArgumentException("nodesPerShard must be positive: " + nodesPerShard);
        }
        this.nodesPerShard = nodesPerShard;
        this.members = List.copyOf(shards);
        record Node(long position, ShardId owner) {
        }
        List<Node> nodes = new ArrayList<>(members.size() * nodesPerShard);
        for (ShardId shard : members) {
            for (int i = 0; i < nodesPerShard; i++) {
                nodes.add(new Node(StableHash.of(shard.name() + "-vnode-" + i), shard));
            }
        }
        // Ties (astronomically rare) are broken by shard id so that the ring does not depend on insertion order.
        nodes.sort(Comparator.comparingLong(Node::position).thenComparing(Node::owner));
        this.positions = new long[nodes.size()];
        this.owners = new ShardId[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            positions[i] = nodes.get(i).position();
            owners[i] = nodes.get(i).owner();
        }
    }

    /** The shard owning the ring position of {@code keyHash}. */
    public ShardId shardForHash(long keyHash) {
        long bestDistance = -1L; // unsigned: the largest distance
        ShardId best = null;
        for (int probe = 0; probe < PROBES; probe++) {
            long position = StableHash.mix(keyHash + probe * GOLDEN_GAMMA);
            int index = Arrays.binarySearch(positions, position);
            if (index < 0) {
                index = -index - 1;
            }
            if (index == positions.length) {
                index = 0;
            }
            long distance = positions[index] - position; // clockwise distance modulo 2^64
            if (best == null || Long.compareUnsigned(distance, bestDistance) < 0) {
                bestDistance = distance;
                best = owners[index];
            }
        }
        return best;
    }

    /** The shard owning {@code key} (see {@link StableHash#of}). */
    public ShardId shardFor(Object key) {
        return shardForHash(StableHash.of(key));
    }

    /** The shards on the ring, in the order given. */
    public List<ShardId> members() {
        return members;
    }

    public int nodesPerShard() {
        return nodesPerShard;
    }

    /** A ring with {@code shard} added. */
    public ConsistentHashRing with(ShardId shard) {
        List<ShardId> more = new ArrayList<>(members);
        if (!more.contains(shard)) {
            more.add(shard);
        }
        return new ConsistentHashRing(more, nodesPerShard);
    }

    /** A ring with {@code shard} removed. */
    public ConsistentHashRing without(ShardId shard) {
        List<ShardId> fewer = new ArrayList<>(members);
        fewer.remove(shard);
        return new ConsistentHashRing(fewer, nodesPerShard);
    }
}
