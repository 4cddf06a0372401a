package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.FanOutQueries;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;
import org.junit.jupiter.api.Test;

/**
 * Aggregate queries run one after the other on one factory, as an application runs them (issue 54): each query's
 * merged rows, every value and its Java type, equal the same query's on one database holding the same rows, whatever
 * ran before it. One database answers each query alone (its plan never taken from a cache). A subclass names the
 * database and owns a fixture of {@link #CLIENTS} clients, its factory used by these tests only.
 */
abstract class AggregateSequenceContract {

    /** Enough clients that all their visits (shorts) sum past {@link Short#MAX_VALUE}. */
    static final int CLIENTS = 300;
    private static final int MISMATCHES_SHOWN = 20;

    abstract ClientFixture fixture();

    /**
     * The sequence: an AVG of an int attribute, whose shard statement selects SUM and COUNT of it, and then
     * the query selecting that SUM and COUNT. The condition on the rating is this test's own, so that no other query
     * of the factory has the shape.
     */
    @Test
    void aSumAndCountOfAnIntAfterItsAverageHaveTheTypesOfOneDatabase() {
        String average = "select avg(c.tier) from Client c where c.rating >= 0";
        String sumAndCount = "select sum(c.tier), count(c.tier) from Client c where c.rating >= 0";

        assertSameRows(average, fixture().sharded.fanOut().createQuery(average, Object.class).getResultList(),
                oneDatabase(average));
        List<Object> merged = fixture().sharded.fanOut().createQuery(sumAndCount, Object.class).getResultList();

        assertSameRows(sumAndCount, merged, oneDatabase(sumAndCount));
        assertThat(((Object[]) merged.get(0))[0]).isInstanceOf(Long.class);
    }

    /**
     * Two Criteria queries of one shape whose SUM over an int attribute the Criteria API types differently:
     * {@code sum} as its argument (an Integer), {@code sumAsLong} as a Long. Run one after the other on one factory,
     * each keeps its type, in either order. The condition on {@code createdAt} is this test's own.
     */
    @Test
    void criteriaSumsOfOneShapeKeepTheirDeclaredTypes() {
        FanOutQueries queries = fixture().sharded.fanOut();
        HibernateCriteriaBuilder cb = (HibernateCriteriaBuilder) queries.criteriaBuilder();

        List<?> asLongFirst = queries.createQuery(sumOfTiers(cb, true)).getResultList();
        List<?> asIntegerSecond = queries.createQuery(sumOfTiers(cb, false)).getResultList();
        List<?> asLongThird = queries.createQuery(sumOfTiers(cb, true)).getResultList();

        List<?> asLong = fixture().onReference(s -> s.createQuery(sumOfTiers(s.getCriteriaBuilder(), true))
                .setQueryPlanCacheable(false).getResultList());
        List<?> asInteger = fixture().onReference(s -> s.createQuery(sumOfTiers(s.getCriteriaBuilder(), false))
                .setQueryPlanCacheable(false).getResultList());
        assertSameRows("sumAsLong(tier)", asLongFirst, asLong);
        assertSameRows("sum(tier) after sumAsLong(tier)", asIntegerSecond, asInteger);
        assertSameRows("sumAsLong(tier) after sum(tier)", asLongThird, asLong);
        assertThat(asLongFirst.get(0)).isInstanceOf(Long.class);
        assertThat(asIntegerSecond.get(0)).isInstanceOf(Integer.class);
    }

    /**
     * An AVG of a short attribute whose values sum past a short's range equals one database's: each shard's partial
     * SUM is read and added as the database's SUM over shorts is typed, not as a short.
     */
    @Test
    void anAverageOfShortsSummingPastAShortEqualsOneDatabase() {
        String average = "select avg(c.visits) from Client c where c.rating >= 2";
        Long total = fixture().onReference(s -> s.createQuery("select sum(c.visits) from Client c"
                + " where c.rating >= 2", Long.class).getSingleResult());
        assertThat(total).as("the visits' sum (the test needs one past a short)").isGreaterThan(Short.MAX_VALUE);

        assertSameRows(average, fixture().sharded.fanOut().createQuery(average, Object.class).getResultList(),
                oneDatabase(average));
    }

    /** {@code select sum(c.tier) from Client c where c.createdAt is not null}, its SUM an Integer or a Long. */
    private static CriteriaQuery<Number> sumOfTiers(HibernateCriteriaBuilder cb, boolean asLong) {
        CriteriaQuery<Number> query = cb.createQuery(Number.class);
        Root<Client> c = query.from(Client.class);
        Expression<Integer> tier = c.get("tier");
        return query.select(asLong ? cb.sumAsLong(tier) : cb.sum(tier)).where(cb.isNotNull(c.get("createdAt")));
    }

    private List<Object> oneDatabase(String jpql) {
        return fixture().onReference(session -> session.createSelectionQuery(jpql, Object.class)
                .setQueryPlanCacheable(false).getResultList());
    }

    private static void assertSameRows(String query, List<?> merged, List<?> oneDatabase) {
        assertThat(described(merged)).as(query).isEqualTo(described(oneDatabase));
    }

    /** The rows as {@link Rows#normalize} compares them, each after what it is: a Tuple, an array or a value. */
    private static List<Object> described(List<?> rows) {
        List<Object> described = new ArrayList<>(rows.size());
        for (Object row : rows) {
            String kind = row instanceof Tuple ? "Tuple" : row instanceof Object[] ? "Object[]" : "value";
            described.add(kind + " " + Rows.value(row));
        }
        return described;
    }
}
