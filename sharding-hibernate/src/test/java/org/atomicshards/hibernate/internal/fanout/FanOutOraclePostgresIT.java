package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle on PostgreSQL: the runtime's sharded factories over 3 to 8 PostgreSQL shard databases with the
 * {@code C} collation, each query (Criteria, then its JPQL text) compared with the same query on one PostgreSQL
 * database with the {@code C} collation holding every row. The data holds emoji and U+FB01, which {@code C} orders
 * by code point (not as Java's UTF-16 {@code String.compareTo}), trailing spaces and strings equal but for case.
 * PostgreSQL orders nulls as the largest values (H2 as the smallest), so this also checks the merge places them as
 * the dialect does.
 */
class FanOutOraclePostgresIT {

    static final int CASES = 200;
    static final String C_COLLATION = "template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'";
    private static ShardFixture oracle;

    @BeforeAll
    static void createOracle() {
        oracle = ShardFixture.postgres(System.getProperty("atomicshards.it.postgres.url",
                "jdbc:postgresql://127.0.0.1:5432/"));
    }

    @AfterAll
    static void dropOracle() {
        oracle.close();
    }

    static Stream<Arguments> factories() {
        return Stream.of(
                Arguments.of(PolicyKind.HASH, 4, FanOutOracleTest.FIXED_SEED),
                Arguments.of(PolicyKind.RANGE, 3, FanOutOracleTest.RANDOM_SEED),
                Arguments.of(PolicyKind.HASH, 8, FanOutOracleTest.RANDOM_SEED));
    }

    @ParameterizedTest(name = "{0} x {1} PostgreSQL shards, seed {2}")
    @MethodSource("factories")
    void mergedResultsEqualOneDatabase(PolicyKind policy, int shards, long seed) {
        try (RuntimeFactories.Sharded sharded = RuntimeFactories.build(DatabaseKind.POSTGRESQL, policy, shards,
                oracle.data, C_COLLATION, FanOutSettings.defaults())) {
            OracleRunner.Outcome outcome = new OracleRunner(oracle, OracleRunner.Strings.EXACT, true).run(
                    "postgresql-" + policy + "x" + shards, sharded.factory().fanOut(),
                    sharded.factory().sessionFactory().getCriteriaBuilder(), seed, CASES);
            System.out.println("Oracle PostgreSQL C " + policy + "x" + shards + " seed " + seed + ": " + outcome);

            assertThat(outcome.cases()).isEqualTo(CASES);
            assertThat(outcome.ordered()).isPositive();
        }
    }
}
