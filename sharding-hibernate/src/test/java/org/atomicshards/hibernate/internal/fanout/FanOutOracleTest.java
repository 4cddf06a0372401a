package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle: thousands of generated queries, each run across the shards of a layout and on one database holding
 * all rows; the results (values and Java types) must be equal. Runs a fixed seed (reproducible) and a fresh random
 * seed (printed in every failure message) on every layout; on the 3-shard layouts each query runs again as JPQL
 * text (the queries of a layout run in sequence through one fan-out entry point).
 */
class FanOutOracleTest {

    static final long FIXED_SEED = 42L;
    /** A new seed each run; {@code -Datomicshards.oracle.seed=<seed>} replays the one a failure names. */
    static final long RANDOM_SEED = Long.getLong("atomicshards.oracle.seed", System.nanoTime());
    static final int CASES_PER_RUN = 250;

    static Stream<Arguments> layouts() {
        Stream.Builder<Arguments> layouts = Stream.builder();
        for (long seed : new long[] {FIXED_SEED, RANDOM_SEED}) {
            layouts.add(Arguments.of(TestRouter.Policy.HASH, 1, seed));
            layouts.add(Arguments.of(TestRouter.Policy.HASH, 2, seed));
            layouts.add(Arguments.of(TestRouter.Policy.HASH, 3, seed));
            layouts.add(Arguments.of(TestRouter.Policy.HASH, 8, seed));
            layouts.add(Arguments.of(TestRouter.Policy.RANGE, 2, seed));
            layouts.add(Arguments.of(TestRouter.Policy.RANGE, 3, seed));
            layouts.add(Arguments.of(TestRouter.Policy.RANGE, 8, seed));
        }
        return layouts.build();
    }

    @ParameterizedTest(name = "{0} x {1} shards, seed {2}")
    @MethodSource("layouts")
    void mergedResultsEqualOneDatabase(TestRouter.Policy policy, int shards, long seed) {
        ShardFixture fixture = ShardFixture.h2();
        OracleRunner.Outcome outcome = new OracleRunner(fixture, OracleRunner.Strings.EXACT, shards == 3)
                .run(fixture.layout(policy, shards), seed, CASES_PER_RUN);
        System.out.println("Oracle H2 " + policy + "x" + shards + " seed " + seed + ": " + outcome);

        assertThat(outcome.cases()).isEqualTo(CASES_PER_RUN);
        assertThat(outcome.ordered()).isPositive();
        assertThat(outcome.multisets()).isPositive();
    }
}
