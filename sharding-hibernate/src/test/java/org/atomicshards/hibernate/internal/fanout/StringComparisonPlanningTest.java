package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.atomicshards.hibernate.FanOutSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The planner records every place where the merge compares strings, and only those. */
class StringComparisonPlanningTest {

    private final ShardFixture fixture = ShardFixture.h2();
    private final FanOutEngine engine = new FanOutEngine(fixture.sessionFactory,
            fixture.layout(TestRouter.Policy.HASH, 2).router(), FanOutSettings.defaults());

    @AfterEach
    void close() {
        engine.close();
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                Arguments.of("select p from Purchase p order by p.category", List.of("ORDER BY"), List.of()),
                Arguments.of("select p.category from Purchase p order by upper(p.category) desc",
                        List.of("ORDER BY"), List.of()),
                Arguments.of("select p from Purchase p order by p.amount, p.id", List.of(), List.of()),
                Arguments.of("select max(p.category) from Purchase p", List.of("max("), List.of()),
                Arguments.of("select min(p.amount) from Purchase p", List.of(), List.of()),
                Arguments.of("select p.category, count(p) from Purchase p group by p.category",
                        List.of(), List.of("GROUP BY")),
                Arguments.of("select p.category, count(p) from Purchase p group by p.category order by p.category",
                        List.of("ORDER BY"), List.of("GROUP BY")),
                Arguments.of("select p.category, count(p) from Purchase p group by p.category"
                        + " having p.category > 'b'", List.of("HAVING"), List.of("GROUP BY")),
                Arguments.of("select p.quantity, count(p) from Purchase p group by p.quantity"
                        + " having count(p) > 1 order by p.quantity", List.of(), List.of()),
                Arguments.of("select distinct p.category from Purchase p", List.of(), List.of("SELECT DISTINCT")),
                Arguments.of("select distinct p.amount from Purchase p order by p.amount", List.of(), List.of()),
                Arguments.of("select count(distinct p.category) from Purchase p", List.of(),
                        List.of("an aggregate over DISTINCT")),
                Arguments.of("select p.id from Purchase p where p.category = 'a' order by p.id", List.of(),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void recordsStringComparisons(String hql, List<String> orderings, List<String> equalities) {
        MergePlan plan = engine.plan(statement(hql));

        assertThat(plan.stringOrderings).hasSameSizeAs(orderings);
        for (int i = 0; i < orderings.size(); i++) {
            assertThat(plan.stringOrderings.get(i)).startsWith(orderings.get(i)).contains("category");
        }
        assertThat(plan.stringEqualities).hasSameSizeAs(equalities);
        for (int i = 0; i < equalities.size(); i++) {
            assertThat(plan.stringEqualities.get(i)).startsWith(equalities.get(i)).contains("category");
        }
    }

    private SqmSelectStatement<?> statement(String hql) {
        SessionFactoryImplementor factory = (SessionFactoryImplementor) fixture.sessionFactory;
        return (SqmSelectStatement<?>) factory.getQueryEngine().getInterpretationCache()
                .resolveHqlInterpretation(hql, Object.class, factory.getQueryEngine().getHqlTranslator())
                .getSqmStatement();
    }
}
