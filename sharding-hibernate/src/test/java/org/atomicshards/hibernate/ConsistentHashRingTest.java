package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.internal.routing.ConsistentHashRing;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Seed 002's ring figures: 3 shards x 150 virtual nodes over 10,000 keys. */
class ConsistentHashRingTest {

    private static final int KEYS = 10_000;

    /** Shard names and key shapes: the seed's own ("shard-0", "user:42"), ours ("s0", 42L). */
    static Stream<Arguments> rings() {
        return Stream.of(
                Arguments.of("shard-", (java.util.function.IntFunction<Object>) i -> "user:" + i),
                Arguments.of("s", (java.util.function.IntFunction<Object>) i -> (long) i),
                Arguments.of("db-", (java.util.function.IntFunction<Object>) i -> java.util.UUID.nameUUIDFromBytes(
                        ("key" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    }

    private static ConsistentHashRing ring(String prefix, int... shards) {
        return new ConsistentHashRing(java.util.Arrays.stream(shards).mapToObj(i -> ShardId.of(prefix + i)).toList(), 150);
    }

    private static Map<ShardId, Integer> distribution(ConsistentHashRing ring, java.util.function.IntFunction<Object> key) {
        Map<ShardId, Integer> counts = new HashMap<>();
        for (int i = 0; i < KEYS; i++) {
            counts.merge(ring.shardFor(key.apply(i)), 1, Integer::sum);
        }
        return counts;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void threeShardsAreBalancedWithinTenPercent(String prefix, java.util.function.IntFunction<Object> key) {
        Map<ShardId, Integer> counts = distribution(ring(prefix, 0, 1, 2), key);
        double skew = (double) Collections.max(counts.values()) / Collections.min(counts.values());
        assertThat(counts).hasSize(3);
        assertThat(skew).isLessThanOrEqualTo(1.10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void addingAFourthShardMovesAQuarterOfTheKeysAllToTheNewShard(String prefix, java.util.function.IntFunction<Object> key) {
        ConsistentHashRing three = ring(prefix, 0, 1, 2);
        ConsistentHashRing four = three.with(ShardId.of(prefix + 3));
        int moved = 0;
        for (int i = 0; i < KEYS; i++) {
            ShardId before = three.shardFor(key.apply(i));
            ShardId after = four.shardFor(key.apply(i));
            if (!before.equals(after)) {
                moved++;
                assertThat(after).isEqualTo(ShardId.of(prefix + 3));
            }
        }
        assertThat(moved / (double) KEYS).isBetween(0.22, 0.28);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void removingAShardMovesOnlyThatShardsKeys(String prefix, java.util.function.IntFunction<Object> key) {
        ConsistentHashRing four = ring(prefix, 0, 1, 2, 3);
        ConsistentHashRing withoutOne = four.without(ShardId.of(prefix + 1));
        int moved = 0;
        int ownedByRemoved = 0;
        for (int i = 0; i < KEYS; i++) {
            ShardId before = four.shardFor(key.apply(i));
            if (before.equals(ShardId.of(prefix + 1))) {
                ownedByRemoved++;
            }
            if (!before.equals(withoutOne.shardFor(key.apply(i)))) {
                moved++;
                assertThat(before).isEqualTo(ShardId.of(prefix + 1));
            }
        }
        assertThat(moved).isEqualTo(ownedByRemoved);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void theRingDoesNotDependOnTheOrderOfItsShards(String prefix, java.util.function.IntFunction<Object> key) {
        ConsistentHashRing forward = ring(prefix, 0, 1, 2);
        ConsistentHashRing backward = new ConsistentHashRing(
                List.of(ShardId.of(prefix + 2), ShardId.of(prefix + 1), ShardId.of(prefix + 0)), 150);
        for (int i = 0; i < 1000; i++) {
            assertThat(backward.shardFor(key.apply(i))).isEqualTo(forward.shardFor(key.apply(i)));
        }
    }
}
