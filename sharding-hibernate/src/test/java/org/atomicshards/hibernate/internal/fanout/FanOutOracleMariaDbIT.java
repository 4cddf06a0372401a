package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The oracle on MariaDB: the runtime's sharded factories over MariaDB shard databases with a binary collation, each
 * query (Criteria, then its JPQL text) compared with the same query on one MariaDB database of the same collation
 * holding every row. The data holds emoji, U+FB01, trailing spaces and tabs and strings equal but for case.
 * {@code utf8mb4_nopad_bin} compares exactly; {@code utf8mb4_bin} is PAD SPACE, where the value a database returns
 * for a group of strings equal but for trailing spaces is not defined (see {@link OracleRunner.Strings#PAD_SPACE}).
 */
class FanOutOracleMariaDbIT {

    static final int CASES = 200;
    private static final Map<String, RuntimeOracleDatabase> ORACLES = new ConcurrentHashMap<>();

    @AfterAll
    static void dropOracles() {
        ORACLES.values().forEach(RuntimeOracleDatabase::close);
    }

    static Stream<Arguments> factories() {
        return Stream.of(
                Arguments.of("utf8mb4_nopad_bin", PolicyKind.HASH, 4, FanOutOracleTest.FIXED_SEED),
                Arguments.of("utf8mb4_nopad_bin", PolicyKind.RANGE, 3, FanOutOracleTest.RANDOM_SEED),
                Arguments.of("utf8mb4_bin", PolicyKind.HASH, 4, FanOutOracleTest.FIXED_SEED),
                Arguments.of("utf8mb4_bin", PolicyKind.RANGE, 3, FanOutOracleTest.RANDOM_SEED));
    }

    @ParameterizedTest(name = "{0}: {1} x {2} MariaDB shards, seed {3}")
    @MethodSource("factories")
    void mergedResultsEqualOneDatabase(String collation, PolicyKind policy, int shards, long seed) {
        String createOptions = "character set utf8mb4 collate " + collation;
        RuntimeOracleDatabase oracle = ORACLES.computeIfAbsent(collation, c -> new RuntimeOracleDatabase(
                DatabaseKind.MARIADB, createOptions, new TestDataSet(20_261_121L, 400, 2_000, true)));
        OracleRunner.Strings strings = collation.equals("utf8mb4_bin") ? OracleRunner.Strings.PAD_SPACE
                : OracleRunner.Strings.EXACT;
        try (RuntimeFactories.Sharded sharded = RuntimeFactories.build(DatabaseKind.MARIADB, policy, shards,
                oracle.data(), createOptions, FanOutSettings.defaults())) {
            OracleRunner.Outcome outcome = new OracleRunner(oracle, strings, true).run(
                    "mariadb-" + collation + "-" + policy + "x" + shards, sharded.factory().fanOut(),
                    sharded.factory().sessionFactory().getCriteriaBuilder(), seed, CASES);
            System.out.println("Oracle MariaDB " + collation + " " + policy + "x" + shards + " seed " + seed + ": "
                    + outcome);

            assertThat(outcome.cases()).isEqualTo(CASES);
            assertThat(outcome.ordered()).isPositive();
            assertThat(outcome.jpql()).isPositive();
        }
    }
}
