package org.atomicshards.hibernate.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.FixedUnitTopology;
import org.atomicshards.hibernate.internal.routing.VirtualShardMap;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which keys a topology change moves ({@link SelectionPolicy#virtualShardsMovedBy} and {@link SelectionPolicy#moves}),
 * checked key by key against where each policy routes before and after, on 100,000 random keys.
 */
class TopologyChangeTest {

    private static final int KEYS = 100_000;
    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final ShardId S2 = ShardId.of("s2");
    private static final ShardId S3 = ShardId.of("s3");

    /** 16 virtual shards split evenly over s0 and s1. */
    private static VirtualShardMap evenSplit() {
        List<ShardId> owners = IntStream.range(0, VIRTUAL_SHARDS).mapToObj(v -> v < 8 ? S0 : S1).toList();
        return new VirtualShardMap(1, owners, List.of(S0, S1, S2));
    }

    private static FixedUnitTopology topology(Class<?> keyType, VirtualShardMap map, List<ShardId> ring) {
        return new FixedUnitTopology(Object.class, keyType, map, ring, new InMemoryPlacements());
    }

    private static List<Long> randomLongs(long seed, long bound) {
        Random random = new Random(seed);
        List<Long> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < KEYS; i++) {
            keys.add(Math.floorMod(random.nextLong(), bound));
        }
        return keys;
    }

    static Stream<Arguments> virtualShardPolicies() {
        List<KeyRange> ranges = new ArrayList<>();
        for (int v = 0; v < VIRTUAL_SHARDS; v++) {
            ranges.add(KeyRange.of(v * 1_000_000L, v * 1_000_000L + 999_999, v));
        }
        return Stream.of(Arguments.of(new HashSelection()), Arguments.of(new ModuloSelection()),
                Arguments.of(new RangeSelection(ranges)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("virtualShardPolicies")
    void movingVirtualShardsMovesExactlyTheKeysOnThem(SelectionPolicy policy) {
        VirtualShardMap before = evenSplit();
        VirtualShardMap after = before.with(Set.of(3, 9, 10), S2);
        FixedUnitTopology from = topology(Long.class, before, List.of());
        FixedUnitTopology to = from.withDirectory(after);

        Set<Integer> moved = policy.virtualShardsMovedBy(before, after);
        assertThat(moved).containsExactly(3, 9, 10);
        int movedKeys = 0;
        for (long key : randomLongs(1, VIRTUAL_SHARDS * 1_000_000L)) {
            boolean onMovedBucket = moved.contains(policy.virtualShardOf(key, from));
            assertThat(policy.moves(key, from, to)).as("key %s", key).isEqualTo(onMovedBucket);
            if (onMovedBucket) {
                movedKeys++;
                assertThat(policy.shardOf(key, to)).isEqualTo(S2);
            } else {
                assertThat(policy.shardOf(key, to)).isEqualTo(policy.shardOf(key, from));
            }
        }
        assertThat(movedKeys).as("about 3/16 of the keys").isBetween(KEYS * 3 / 16 - 1500, KEYS * 3 / 16 + 1500);
    }

    @Test
    void theVirtualShardCountCannotChange() {
        VirtualShardMap eight = new VirtualShardMap(1, List.of(S0, S0, S0, S0, S1, S1, S1, S1), List.of(S0, S1));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new HashSelection().virtualShardsMovedBy(evenSplit(), eight))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot change");
    }

    @Nested
    class ConsistentHash {

        private final SelectionPolicy ring = new ConsistentHashSelection(150);
        private final FixedUnitTopology three = topology(Long.class, evenSplit(), List.of(S0, S1, S2));

        @Test
        void addingAMemberMovesExactlyTheKeysTheNewRingAssignsToIt() {
            FixedUnitTopology four = three.withRingMembers(List.of(S0, S1, S2, S3));
            int moved = 0;
            for (long key : randomLongs(2, Long.MAX_VALUE)) {
                boolean toNewMember = S3.equals(ring.shardOf(key, four));
                assertThat(ring.moves(key, three, four)).as("key %s", key).isEqualTo(toNewMember);
                if (!toNewMember) {
                    assertThat(ring.shardOf(key, four)).isEqualTo(ring.shardOf(key, three));
                }
                moved += toNewMember ? 1 : 0;
            }
            assertThat(moved).as("about a quarter of the keys").isBetween(KEYS / 4 - 2500, KEYS / 4 + 2500);
        }

        @Test
        void removingAMemberMovesExactlyItsKeys() {
            FixedUnitTopology two = three.withRingMembers(List.of(S0, S2));
            int moved = 0;
            Random random = new Random(3);
            for (int i = 0; i < KEYS; i++) {
                String key = "customer-" + random.nextLong();
                boolean wasOnRemoved = S1.equals(ring.shardOf(key, three));
                assertThat(ring.moves(key, three, two)).as("key %s", key).isEqualTo(wasOnRemoved);
                assertThat(ring.shardOf(key, two)).isNotEqualTo(S1);
                moved += wasOnRemoved ? 1 : 0;
            }
            assertThat(moved).as("about a third of the keys").isBetween(KEYS / 3 - 2500, KEYS / 3 + 2500);
        }

        @Test
        void aRingHasNoVirtualShardsToMove() {
            assertThat(ring.virtualShardsMovedBy(evenSplit(), evenSplit().with(Set.of(0, 1), S2))).isEmpty();
            assertThat(ring.moves(42L, three, three.withDirectory(evenSplit().with(Set.of(0, 1), S2)))).isFalse();
        }
    }

    @Nested
    class RecordedPlacements {

        @Test
        void placedUnitsMoveWithTheirVirtualShardAndUnplacedKeysDoNotMove() {
            SelectionPolicy lookup = new LookupSelection();
            FixedUnitTopology before = topology(Long.class, evenSplit(), List.of());
            for (long key = 0; key < 1000; key++) {
                before.placements().place(key, (int) (key % VIRTUAL_SHARDS));
            }
            VirtualShardMap after = evenSplit().with(Set.of(2, 12), S2);
            FixedUnitTopology to = before.withDirectory(after);
            Set<Integer> moved = lookup.virtualShardsMovedBy(before.directory(), after);
            assertThat(moved).containsExactly(2, 12);
            Set<Long> movedKeys = new TreeSet<>();
            for (long key = 0; key < 1000; key++) {
                if (lookup.moves(key, before, to)) {
                    movedKeys.add(key);
                }
            }
            assertThat(movedKeys).hasSize(125).allMatch(key -> moved.contains((int) (key % VIRTUAL_SHARDS)));
            assertThat(lookup.moves(5000L, before, to)).as("never placed").isFalse();
        }
    }
}
