package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every database with a non-binary default collation must show: string comparisons in the merge are refused
 * naming the attribute and the collation, the rest stays correct, and a declared string order lifts the refusal of
 * ordering. Subclasses name the database and say what GROUP BY on strings does under their collation.
 */
abstract class StringCollationContract {

    /** The shard databases' kind and collation; the same instance for the life of the test class. */
    abstract StringCollationScenarios scenarios();

    /** GROUP BY a string under a declared string order: merged or refused, depending on the collation. */
    abstract void checkGroupByString(FanOutQueries fanOut);

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class BinaryStringOrder {

        private RuntimeFactories.Sharded sharded;
        private FanOutQueries fanOut;

        @BeforeAll
        void build() {
            sharded = scenarios().build(FanOutSettings.defaults());
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
            scenarios().stringOrderByFailsNamingAttributeAndCollation(fanOut, hql, construct);
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
            scenarios().numericOrderByIsCorrect(fanOut);
        }

        @Test
        void numericAggregatesAreCorrect() {
            scenarios().numericAggregatesAreCorrect(fanOut);
        }

        @Test
        void stringsSelectedButNotComparedAreCorrect() {
            scenarios().stringsSelectedButNotComparedAreCorrect(fanOut);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class DeclaredStringOrder {

        private RuntimeFactories.Sharded sharded;

        @BeforeAll
        void build() {
            sharded = scenarios().build(FanOutSettings.builder()
                    .stringOrder(StringCollationScenarios.rootCollator()).build());
        }

        @AfterAll
        void close() {
            sharded.close();
        }

        @Test
        void stringOrderByMergesWithTheDeclaredOrder() {
            scenarios().declaredOrderMergesStrings(sharded.factory().fanOut());
        }

        @Test
        void groupByString() {
            checkGroupByString(sharded.factory().fanOut());
        }
    }
}
