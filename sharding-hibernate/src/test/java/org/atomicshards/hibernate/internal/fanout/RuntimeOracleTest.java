package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle on the runtime's real sharded factories ({@code ShardedSessionFactory.fanOut()}) under its policies,
 * 1 to 8 H2 shards, against one H2 database holding every row; the queries of a factory run in sequence on it (on
 * the modulo factory each once more as JPQL text, then replayed).
 */
class RuntimeOracleTest {

    static final int CASES = 300;

    static Stream<Arguments> factories() {
        return Stream.of(
                Arguments.of(PolicyKind.HASH, 1, FanOutOracleTest.FIXED_SEED),
                Arguments.of(PolicyKind.HASH, 2, FanOutOracleTest.RANDOM_SEED),
                Arguments.of(PolicyKind.HASH, 8, FanOutOracleTest.FIXED_SEED),
                Arguments.of(PolicyKind.RANGE, 3, FanOutOracleTest.FIXED_SEED),
                Arguments.of(PolicyKind.RANGE, 8, FanOutOracleTest.RANDOM_SEED),
                Arguments.of(PolicyKind.MODULO, 3, FanOutOracleTest.RANDOM_SEED),
                Arguments.of(PolicyKind.CONSISTENT_HASH, 3, FanOutOracleTest.FIXED_SEED));
    }

    @ParameterizedTest(name = "{0} x {1} shards, seed {2}")
    @MethodSource("factories")
    void mergedResultsEqualOneDatabase(PolicyKind policy, int shards, long seed) {
        ShardFixture oracle = ShardFixture.h2();
        try (RuntimeFactories.Sharded sharded = RuntimeFactories.build(DatabaseKind.H2, policy, shards,
                oracle.data)) {
            OracleRunner.Outcome outcome = new OracleRunner(oracle, OracleRunner.Strings.EXACT,
                    policy == PolicyKind.MODULO)
                    .run(policy + "x" + shards, sharded.factory().fanOut(),
                            sharded.factory().sessionFactory().getCriteriaBuilder(), seed, CASES);
            System.out.println("Oracle runtime H2 " + policy + "x" + shards + " seed " + seed + ": " + outcome);

            assertThat(outcome.cases()).isEqualTo(CASES);
            assertThat(outcome.ordered()).isPositive();
        }
    }
}
