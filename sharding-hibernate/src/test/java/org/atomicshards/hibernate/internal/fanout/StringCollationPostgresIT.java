package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fan-out over PostgreSQL shard databases created with an ICU collation ({@code locale_provider icu}, locale
 * {@code und}, the root locale; this machine has no libc locale but C):
 * string comparisons in the merge are refused naming the attribute and the collation; the rest stays correct.
 */
class StringCollationPostgresIT {

    static final StringCollationScenarios SCENARIOS = new StringCollationScenarios(DatabaseKind.POSTGRESQL,
            "template template0 encoding 'UTF8' locale_provider icu icu_locale 'und' locale 'C'", "icu:und");

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class BinaryStringOrder {

        private RuntimeFactories.Sharded sharded;
        private FanOutQueries fanOut;

        @BeforeAll
        void build() {
            sharded = SCENARIOS.build(FanOutSettings.defaults());
            fanOut = sharded.factory().fanOut();
        }

        @AfterAll
        void close() {
            sharded.close();
        }

        static Stream<Arguments> refused() {
            return Stream.of(
                    Arguments.of("select p from Purchase p order by p.category", "ORDER BY"),
                    Arguments.of("select p.id from Purchase p order by upper(p.category), p.id", "ORDER BY"),
                    Arguments.of("select max(p.category) from Purchase p", "max("),
                    Arguments.of("select p.quantity, min(p.category) from Purchase p group by p.quantity",
                            "min("),
                    Arguments.of("select p.category, count(p) from Purchase p group by p.category"
                            + " order by p.category", "ORDER BY"),
                    Arguments.of("select distinct p.category from Purchase p order by p.category", "ORDER BY"),
                    Arguments.of("select p.quantity, max(p.category) from Purchase p group by p.quantity"
                            + " having max(p.category) > 'm'", "max("));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("refused")
        void stringComparisonsAreRefused(String hql, String construct) {
            SCENARIOS.stringOrderByFailsNamingAttributeAndCollation(fanOut, hql, construct);
        }

        @Test
        void refusalNamesTheAttribute() {
            assertThatThrownBy(() -> fanOut.createQuery("select p from Purchase p order by p.category",
                    Object.class).getResultList())
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("category");
        }

        @Test
        void numericOrderByIsCorrect() {
            SCENARIOS.numericOrderByIsCorrect(fanOut);
        }

        @Test
        void numericAggregatesAreCorrect() {
            SCENARIOS.numericAggregatesAreCorrect(fanOut);
        }

        @Test
        void stringsSelectedButNotComparedAreCorrect() {
            SCENARIOS.stringsSelectedButNotComparedAreCorrect(fanOut);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class DeclaredStringOrder {

        private RuntimeFactories.Sharded sharded;

        @BeforeAll
        void build() {
            sharded = SCENARIOS.build(FanOutSettings.builder()
                    .stringOrder(StringCollationScenarios.rootCollator()).build());
        }

        @AfterAll
        void close() {
            sharded.close();
        }

        @Test
        void stringOrderByMergesWithTheDeclaredOrder() {
            SCENARIOS.declaredOrderMergesStrings(sharded.factory().fanOut());
        }

        @Test
        void groupByStringMergesBecauseTheCollationIsDeterministic() {
            java.util.List<Object> rows = sharded.factory().fanOut().createQuery("select p.category, count(p)"
                    + " from Purchase p where p.category is not null group by p.category", Object.class)
                    .getResultList();
            assertThat(rows).hasSize(TestDataSet.CATEGORIES.length);
            assertThat(rows.stream().mapToLong(row -> ((Number) ((Object[]) row)[1]).longValue()).sum())
                    .isEqualTo(SCENARIOS.nonNullCategories());
        }
    }
}
