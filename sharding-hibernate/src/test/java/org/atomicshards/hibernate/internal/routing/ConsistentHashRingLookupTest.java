package org.atomicshards.hibernate.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ring's bucket-indexed lookup is the same function as the binary search it replaced: a key never changes shard
 * across the upgrade. The binary-search lookup of earlier releases is kept here, verbatim, as the reference, and both
 * are asked about random hashes and about the hashes where a successor search goes wrong first: probes landing exactly
 * on a node, one before or after it, on bucket boundaries, and past the last node (wrap-around).
 */
class ConsistentHashRingLookupTest {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private static final int RANDOM_HASHES = 400_000;

    /** The lookup of earlier releases: {@value ConsistentHashRing#PROBES} binary searches over the sorted nodes. */
    static final class BinarySearchRing {

        private final long[] positions;
        private final ShardId[] owners;

        BinarySearchRing(List<ShardId> members, int nodesPerShard, ConsistentHashRing.NodePosition nodePosition) {
            record Node(long position, ShardId owner) {
            }
            List<Node> nodes = new ArrayList<>();
            for (ShardId shard : members) {
                for (int i = 0; i < nodesPerShard; i++) {
                    nodes.add(new Node(nodePosition.of(shard, i), shard));
                }
            }
            nodes.sort(Comparator.comparingLong(Node::position).thenComparing(Node::owner));
            positions = nodes.stream().mapToLong(Node::position).toArray();
            owners = nodes.stream().map(Node::owner).toArray(ShardId[]::new);
        }

        ShardId shardForHash(long keyHash) {
            long bestDistance = -1L;
            ShardId best = null;
            for (int probe = 0; probe < ConsistentHashRing.PROBES; probe++) {
                long position = StableHash.mix(keyHash + probe * GOLDEN_GAMMA);
                int index = Arrays.binarySearch(positions, position);
                if (index < 0) {
                    index = -index - 1;
                }
                if (index == positions.length) {
                    index = 0;
                }
                long distance = positions[index] - position;
                if (best == null || Long.compareUnsigned(distance, bestDistance) < 0) {
                    bestDistance = distance;
                    best = owners[index];
                }
            }
            return best;
        }
    }

    private static final ConsistentHashRing.NodePosition VNODE_HASH =
            (shard, node) -> StableHash.of(shard.name() + "-vnode-" + node);

    /** Every shard's i-th node at the same position: every node position is shared by all shards. */
    private static final ConsistentHashRing.NodePosition COLLIDING = (shard, node) -> node * 0x0123_4567_89AB_CDEFL;

    /** All nodes within 2^20 of each other: one bucket holds them all and every probe scans through it. */
    private static final ConsistentHashRing.NodePosition CLUSTERED =
            (shard, node) -> 0x4000_0000_0000_0000L + (StableHash.of(shard.name() + "/" + node) & 0xF_FFFFL);

    /** Nodes at the extremes of the signed and unsigned orders. */
    private static final ConsistentHashRing.NodePosition EXTREMES = (shard, node) -> switch (node) {
        case 0 -> Long.MIN_VALUE;
        case 1 -> Long.MAX_VALUE;
        case 2 -> 0L;
        case 3 -> -1L;
        default -> StableHash.of(shard.name() + "-vnode-" + node);
    };

    static Stream<Arguments> rings() {
        return Stream.of(
                Arguments.of(1, 150, "vnode hash", VNODE_HASH),
                Arguments.of(2, 150, "vnode hash", VNODE_HASH),
                Arguments.of(3, 150, "vnode hash", VNODE_HASH),
                Arguments.of(4, 150, "vnode hash", VNODE_HASH),
                Arguments.of(5, 150, "vnode hash", VNODE_HASH),
                Arguments.of(8, 150, "vnode hash", VNODE_HASH),
                Arguments.of(16, 150, "vnode hash", VNODE_HASH),
                Arguments.of(3, 1, "vnode hash", VNODE_HASH),
                Arguments.of(2, 1000, "vnode hash", VNODE_HASH),
                Arguments.of(3, 50, "colliding", COLLIDING),
                Arguments.of(4, 150, "clustered", CLUSTERED),
                Arguments.of(3, 10, "extremes", EXTREMES));
    }

    private static List<ShardId> shards(int count) {
        return IntStream.range(0, count).mapToObj(i -> ShardId.of("s" + i)).toList();
    }

    @ParameterizedTest(name = "{0} shards x {1} nodes, {2}")
    @MethodSource("rings")
    void randomHashesRouteAsTheBinarySearchDid(int shardCount, int nodes, String layout,
                                              ConsistentHashRing.NodePosition position) {
        Comparison comparison = new Comparison(shardCount, nodes, position);
        SplittableRandom random = new SplittableRandom(shardCount * 1_000_003L + nodes);
        for (int i = 0; i < RANDOM_HASHES; i++) {
            comparison.check(random.nextLong());
        }
        comparison.assertSame();
    }

    @ParameterizedTest(name = "{0} shards x {1} nodes, {2}")
    @MethodSource("rings")
    void edgeHashesRouteAsTheBinarySearchDid(int shardCount, int nodes, String layout,
                                            ConsistentHashRing.NodePosition position) {
        Comparison comparison = new Comparison(shardCount, nodes, position);
        for (long hash : new long[] {0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE}) {
            comparison.check(hash);
        }
        long[] nodePositions = comparison.reference.positions;
        long first = nodePositions[0];
        long last = nodePositions[nodePositions.length - 1];
        for (int probe = 0; probe < ConsistentHashRing.PROBES; probe++) {
            // A probe exactly on, just before and just after every node.
            for (long node : nodePositions) {
                for (long delta = -1; delta <= 1; delta++) {
                    comparison.checkProbeAt(probe, node + delta);
                }
            }
            // Wrap-around: past the last node, and the ends of the signed and unsigned orders.
            for (long at : new long[] {last + 1, Long.MAX_VALUE, Long.MIN_VALUE, first - 1, -1L, 0L}) {
                comparison.checkProbeAt(probe, at);
            }
        }
        // Bucket boundaries for every bucket size up to 2^14 buckets, and one on each side of them.
        for (int bits = 1; bits <= 14; bits++) {
            for (long bucket = 0; bucket < 1L << bits; bucket++) {
                long start = bucket << (64 - bits);
                for (long delta = -1; delta <= 1; delta++) {
                    comparison.checkProbeAt((int) (bucket & 7), start + delta);
                }
            }
        }
        comparison.assertSame();
    }

    @Test
    void theProbeInversionUsedByTheEdgeCasesIsExact() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long x = random.nextLong();
            assertThat(StableHash.mix(unmix(x))).isEqualTo(x);
        }
        assertThat(StableHash.mix(unmix(0L))).isZero();
    }

    @Test
    void addingAndRemovingShardsKeepsTheNodePositions() {
        List<ShardId> three = shards(3);
        ConsistentHashRing colliding = new ConsistentHashRing(three, 50, COLLIDING);
        Comparison four = new Comparison(4, 50, COLLIDING);
        Comparison two = new Comparison(2, 50, COLLIDING);
        SplittableRandom random = new SplittableRandom(11);
        ConsistentHashRing withFourth = colliding.with(ShardId.of("s3"));
        ConsistentHashRing withoutThird = colliding.without(ShardId.of("s2"));
        for (int i = 0; i < 10_000; i++) {
            long hash = random.nextLong();
            assertThat(withFourth.shardForHash(hash)).isEqualTo(four.reference.shardForHash(hash));
            assertThat(withoutThird.shardForHash(hash)).isEqualTo(two.reference.shardForHash(hash));
        }
    }

    /** One ring and its reference, and the hashes on which they disagreed. */
    private static final class Comparison {

        final ConsistentHashRing ring;
        final BinarySearchRing reference;
        final List<String> mismatches = new ArrayList<>();
        int checked;
        int differing;

        Comparison(int shardCount, int nodes, ConsistentHashRing.NodePosition position) {
            List<ShardId> members = shards(shardCount);
            ring = new ConsistentHashRing(members, nodes, position);
            reference = new BinarySearchRing(members, nodes, position);
        }

        /** Checks the key hash whose probe number {@code probe} lands exactly on ring position {@code at}. */
        void checkProbeAt(int probe, long at) {
            long hash = unmix(at) - probe * GOLDEN_GAMMA;
            check(hash);
        }

        void check(long hash) {
            checked++;
            ShardId expected = reference.shardForHash(hash);
            ShardId actual = ring.shardForHash(hash);
            if (!expected.equals(actual) && differing++ < 10) {
                mismatches.add("hash " + hash + ": " + actual + " instead of " + expected);
            }
        }

        void assertSame() {
            assertThat(checked).isPositive();
            assertThat(mismatches).as("%d of %d lookups differ from the binary search; the first", differing, checked)
                    .isEmpty();
        }
    }

    /** The inverse of {@link StableHash#mix}: an xor-shift by 33 is its own inverse, the multipliers are odd. */
    static long unmix(long k) {
        k ^= k >>> 33;
        k *= inverse(0xc4ceb9fe1a85ec53L);
        k ^= k >>> 33;
        k *= inverse(0xff51afd7ed558ccdL);
        k ^= k >>> 33;
        return k;
    }

    /** The multiplicative inverse modulo 2^64 of an odd number (Newton's iteration doubles the correct bits). */
    private static long inverse(long odd) {
        long x = odd; // correct to 3 bits: odd * odd == 1 mod 8
        for (int i = 0; i < 5; i++) {
            x *= 2 - odd * x;
        }
        return x;
    }
}
