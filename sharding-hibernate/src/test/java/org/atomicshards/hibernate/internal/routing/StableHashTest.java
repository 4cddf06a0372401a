package org.atomicshards.hibernate.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The key hash is part of the on-disk contract: existing keys must route the same in every future release. */
class StableHashTest {

    static Stream<Arguments> goldenValues() {
        return Stream.of(
                Arguments.of(42L, -9148929187392628276L),
                Arguments.of(42, -9148929187392628276L),
                Arguments.of((short) 42, -9148929187392628276L),
                Arguments.of(BigInteger.valueOf(42), -9148929187392628276L),
                Arguments.of("user:42", -7383625480396504504L),
                Arguments.of("Z\u00FCrich-\u6771\u4EAC-\uD83D\uDE00", -6228597806714930491L),
                Arguments.of("lone-\uD800-high", 2546633517302678790L),
                Arguments.of("\uDC00low-first", -5744562965716687770L),
                Arguments.of("end-high\uD83D", 6351885552049792765L),
                Arguments.of(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"), -7878976762992383161L),
                Arguments.of(new BigInteger("123456789012345678901234567890"), 2872520920571241497L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenValues")
    void hashesNeverChange(Object key, long expected) {
        assertThat(StableHash.of(key)).isEqualTo(expected);
    }

    @Test
    void consecutiveKeysSpreadEvenlyOverVirtualShards() {
        int[] buckets = new int[64];
        for (long key = 0; key < 64_000; key++) {
            buckets[(int) Long.remainderUnsigned(StableHash.of(key), 64)]++;
        }
        for (int count : buckets) {
            assertThat(count).isBetween(850, 1150);
        }
    }

    /** Strings are hashed without copying them to bytes, to exactly the hash of their UTF-8 bytes. */
    @Test
    void stringsHashAsTheirUtf8Bytes() {
        char[] edges = {0, 0x7F, 0x80, 0xFF, 0x100, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
            0xFFFF};
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 200_000; i++) {
            char[] chars = new char[random.nextInt(12)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = switch (random.nextInt(6)) {
                    case 0 -> (char) random.nextInt(0x80);
                    case 1 -> (char) random.nextInt(0x80, 0x800);
                    case 2 -> (char) random.nextInt(0x800, 0x10000);
                    case 3 -> (char) random.nextInt(0xD800, 0xE000);
                    case 4 -> edges[random.nextInt(edges.length)];
                    default -> Character.highSurrogate(random.nextInt(0x10000, 0x110000));
                };
                if (chars[j] == 0xD83D && j + 1 < chars.length && random.nextBoolean()) {
                    chars[++j] = 0xDE00;
                }
            }
            String key = new String(chars);
            assertThat(StableHash.of(key)).as("key %s", key.chars().mapToObj(Integer::toHexString).toList())
                    .isEqualTo(StableHash.ofBytes(key.getBytes(StandardCharsets.UTF_8)));
        }
        for (int codePoint = 0; codePoint < 0x110000; codePoint++) {
            String key = "k" + Character.toString(codePoint);
            assertThat(StableHash.of(key)).isEqualTo(StableHash.ofBytes(key.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void aBucketIsTheHashsUnsignedRemainderForEveryBucketCount() {
        SplittableRandom random = new SplittableRandom(11);
        int[] counts = {1, 2, 3, 7, 64, 1000, 1024, 4096, 65_535, 65_536, 1 << 30, Integer.MAX_VALUE};
        long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1023, 1024, -1024};
        for (int count : counts) {
            for (long hash : edges) {
                assertThat(StableHash.bucket(hash, count)).isEqualTo((int) Long.remainderUnsigned(hash, count));
            }
            for (int i = 0; i < 10_000; i++) {
                long hash = random.nextLong();
                assertThat(StableHash.bucket(hash, count)).isEqualTo((int) Long.remainderUnsigned(hash, count));
            }
        }
    }

    @Test
    void unsupportedKeyTypesAreRejected() {
        assertThatThrownBy(() -> StableHash.of(3.5d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Double");
    }
}
