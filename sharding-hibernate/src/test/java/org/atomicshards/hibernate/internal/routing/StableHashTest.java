package org.atomicshards.hibernate.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
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

    @Test
    void unsupportedKeyTypesAreRejected() {
        assertThatThrownBy(() -> StableHash.of(3.5d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Double");
    }
}
