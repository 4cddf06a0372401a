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
 * Immutable: {@link #with} and {@link #without} return new rings.
 *
 * <p>Cost: a lookup is {@value #PROBES} successor searches, each O(1) on average and without allocation. The
 * 64-bit ring is cut into 2<sup>k</sup> equal buckets by the top k bits (2<sup>k</sup> the next power of two at or
 * above four times the node count, at most 2<sup>22</sup>), and a table holds, for each bucket, the index of the
 * first node at or after the bucket's start; a probe jumps there and scans forward past the nodes of its bucket that
 * precede it. Up to about a million nodes the buckets outnumber the nodes at least four to one, so a bucket holds a
 * quarter of a node on average and the scan nearly always stops at the first node it reads. The table costs 4 bytes
 * per bucket (16 KiB for 4 shards x 150 nodes). The result is exactly that of a binary search over the sorted nodes
 * (the lookup of earlier releases), so no key changes shard with this index.
 */
public final class ConsistentHashRing {

    /** Probe positions per key. */
    public static final int PROBES = 8;

    /** The largest bucket table: 2^22 buckets (16 MiB), reached from about a million nodes. */
    static final int MAX_BUCKET_BITS = 22;

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /** Where a shard's {@code i}-th node sits on the ring. */
    @FunctionalInterface
    interface NodePosition {
        long of(ShardId shard, int node);
    }

    private static final NodePosition VNODE_HASH = (shard, node) -> StableHash.of(shard.name() + "-vnode-" + node);

    private final int nodesPerShard;
    private final List<ShardId> members;
    private final NodePosition nodePosition;
    /** Node positions in signed order, followed by one {@code Long.MAX_VALUE} that ends every forward scan. */
    private final long[] positions;
    private final ShardId[] owners;
    /** Whether two nodes share a position (astronomically rare with 64-bit hashes, but then handled exactly). */
    private final boolean sharedPositions;
    /** Right shift that leaves a position's top k bits. */
    private final int bucketShift;
    /** 2^(k-1): added to the signed top k bits to index the buckets from 0. */
    private final int bucketOffset;
    /** For each bucket (in signed order) the index of its first node at or after the bucket's start; one extra. */
    private final int[] bucketStart;

    public ConsistentHashRing(Collection<ShardId> shards, int nodesPerShard) {
        this(shards, nodesPerShard, VNODE_HASH);
    }

    /** A ring whose nodes sit where {@code nodePosition} says (tests use it to build colliding nodes). */
    ConsistentHashRing(Collection<ShardId> shards, int nodesPerShard, NodePosition nodePosition) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("A ring needs at least one shard");
        }
        if (nodesPerShard < 1) {
            throw new IllegalArgumentException("nodesPerShard must be positive: " + nodesPerShard);
        }
        this.nodesPerShard = nodesPerShard;
        this.members = List.copyOf(shards);
        this.nodePosition = nodePosition;
        record Node(long position, ShardId owner) {
        }
        List<Node> nodes = new ArrayList<>(members.size() * nodesPerShard);
        for (ShardId shard : members) {
            for (int i = 0; i < nodesPerShard; i++) {
                nodes.add(new Node(nodePosition.of(shard, i), shard));
            }
        }
        // Ties (astronomically rare) are broken by shard id so that the ring does not depend on insertion order.
        nodes.sort(Comparator.comparingLong(Node::position).thenComparing(Node::owner));
        int count = nodes.size();
        this.positions = new long[count + 1];
        this.owners = new ShardId[count];
        boolean shared = false;
        for (int i = 0; i < count; i++) {
            positions[i] = nodes.get(i).position();
            owners[i] = nodes.get(i).owner();
            shared |= i > 0 && positions[i] == positions[i - 1];
        }
        positions[count] = Long.MAX_VALUE;
        this.sharedPositions = shared;
        int bits = Math.min(MAX_BUCKET_BITS, Math.max(1, 64 - Long.numberOfLeadingZeros(4L * count - 1)));
        this.bucketShift = 64 - bits;
        this.bucketOffset = 1 << (bits - 1);
        this.bucketStart = new int[(1 << bits) + 1];
        int node = 0;
        for (int bucket = 0; bucket < bucketStart.length; bucket++) {
            while (node < count && bucketOf(positions[node]) < bucket) {
                node++;
            }
            bucketStart[bucket] = node;
        }
    }

    /**
     * The bucket of a ring position: its top k bits, offset so that buckets follow the signed order of positions
     * (the arithmetic shift gives -2^(k-1)..2^(k-1)-1).
     */
    private int bucketOf(long position) {
        return (int) (position >> bucketShift) + bucketOffset;
    }

    /** The shard owning the ring position of {@code keyHash}. */
    public ShardId shardForHash(long keyHash) {
        long position = StableHash.mix(keyHash);
        int best = successor(position);
        // clockwise distances modulo 2^64, compared unsigned with the sign bit flipped; the first closest probe wins
        long bestDistance = (positions[best] - position) ^ Long.MIN_VALUE;
        for (int probe = 1; probe < PROBES; probe++) {
            position = StableHash.mix(keyHash + probe * GOLDEN_GAMMA);
            int index = successor(position);
            long distance = (positions[index] - position) ^ Long.MIN_VALUE;
            boolean closer = distance < bestDistance;
            best = closer ? index : best; // conditional moves: which probe is closest is a coin toss for the branches
            bestDistance = closer ? distance : bestDistance;
        }
        return owners[best];
    }

    /** The index of the first node at or after {@code position} (signed order), wrapping around to 0. */
    private int successor(long position) {
        int index = bucketStart[bucketOf(position)];
        while (positions[index] < position) { // ends at the Long.MAX_VALUE after the last node at the latest
            index++;
        }
        if (index == owners.length) {
            return 0;
        }
        if (sharedPositions && positions[index] == position) {
            // Several nodes at exactly this position: pick the one the binary search of earlier releases picked.
            return Arrays.binarySearch(positions, 0, owners.length, position);
        }
        return index;
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
        return new ConsistentHashRing(more, nodesPerShard, nodePosition);
    }

    /** A ring with {@code shard} removed. */
    public ConsistentHashRing without(ShardId shard) {
        List<ShardId> fewer = new ArrayList<>(members);
        fewer.remove(shard);
        return new ConsistentHashRing(fewer, nodesPerShard, nodePosition);
    }
}
