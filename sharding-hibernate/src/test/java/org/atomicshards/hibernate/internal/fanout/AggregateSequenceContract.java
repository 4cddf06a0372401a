package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jakarta.persistence.EntityManager;
import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.FanOutQueries;
import org.hibernate.query.SelectionQuery;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aggregate queries in random sequences on one factory, as an application runs them (issue 54): each query's merged
 * rows, every value and its Java type, equal the same query's on one database holding the same rows, whatever ran
 * before it. Each case is a {@link ClientAggregateQuery} (COUNT, COUNT DISTINCT, SUM, AVG, MIN and MAX over int,
 * short, long, BigInteger, BigDecimal, float and double; over all rows or per tier, with or without HAVING; over
 * every shard or pruned to one; as {@code Object[]}, {@code Tuple}, typed or {@code Object} rows) run through JPQL or
 * the Criteria API, on the fan-out entry point or the entity manager bound to no shard. One database answers each
 * query alone (its plan never taken from a cache). Through Criteria, a SUM over a short is a Short, which one database cannot return past 32,767: such queries run as JPQL
 * unless they sum per tier or over one client. A subclass names the database and owns a fixture of
 * {@link #CLIENTS} clients, its factory used by these tests only.
 */
abstract class AggregateSequenceContract {

    /** Enough clients that all their visits (shorts) sum past {@link Short#MAX_VALUE}. */
    static final int CLIENTS = 300;
    private static final int MISMATCHES_SHOWN = 20;

    abstract ClientFixture fixture();

    /** How many queries one seed runs. */
    abstract int cases();

    static Stream<Long> seeds() {
        return Stream.of(FanOutOracleTest.FIXED_SEED, FanOutOracleTest.RANDOM_SEED);
    }

    /** Through which API a case runs. */
    private enum Api { JPQL, CRITERIA }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomSequencesEqualOneDatabase(long seed) {
        Random random = new Random(seed);
        List<String> mismatches = new ArrayList<>();
        for (int i = 0; i < cases(); i++) {
            ClientAggregateQuery query = ClientAggregateQuery.random(random, CLIENTS);
            Api api = random.nextBoolean() && !query.sumsShortsOverManyClients() ? Api.CRITERIA : Api.JPQL;
            boolean entityManager = random.nextInt(3) == 0;
            String path = api + (entityManager ? " through the entity manager" : "");
            String mismatch = compare(() -> oneDatabase(query, api), () -> fanOut(query, api, entityManager));
            if (mismatch != null) {
                mismatches.add("case " + i + " (" + path + "): " + query + mismatch);
            }
        }
        assertThat(mismatches).as("%d of %d queries in sequence differ from one database (seed %d; replay with"
                + " -Datomicshards.oracle.seed=%d):\n%s", mismatches.size(), cases(), seed, seed,
                String.join("\n", mismatches.subList(0, Math.min(MISMATCHES_SHOWN, mismatches.size())))).isEmpty();
    }

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
     * One Criteria query selecting both SUMs of one attribute, {@code sumAsLong} (as JPQL types it: over a float a
     * Double) and {@code sum} (as its argument: a Float): each is returned in its own type.
     */
    @Test
    void criteriaSumsOfOneAttributeInOneQueryKeepTheirTypes() {
        FanOutQueries queries = fixture().sharded.fanOut();
        List<?> merged = queries.createQuery(sumsOfWeights((HibernateCriteriaBuilder) queries.criteriaBuilder()))
                .getResultList();

        assertSameRows("sumAsLong(weight), sum(weight)", merged, fixture().onReference(s -> s.createQuery(
                sumsOfWeights(s.getCriteriaBuilder())).setQueryPlanCacheable(false).getResultList()));
        assertThat((Object[]) merged.get(0)).extracting(Object::getClass).containsExactly(Double.class, Float.class);
    }

    /** {@code select sum(c.weight), sum(c.weight) from Client c}: the first SUM a Double, the second a Float. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static CriteriaQuery<Object[]> sumsOfWeights(HibernateCriteriaBuilder cb) {
        CriteriaQuery<Object[]> query = cb.createQuery(Object[].class);
        Root<Client> c = query.from(Client.class);
        Expression<Float> weight = c.get("weight");
        return query.multiselect(cb.sumAsLong((Expression) weight), cb.sum(weight));
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

    /**
     * A JPQL query asked for Tuple rows gets Tuples, of one selection or several, on the fan-out entry point and the
     * unbound entity manager, their elements found by alias; pruned to one shard too.
     */
    @Test
    void jpqlAskedForTuplesGetsTuples() {
        String one = "select count(c) as n from Client c where c.visits > 7";
        String several = "select c.tier as tier, sum(c.visits) as total from Client c where c.visits > 7"
                + " group by c.tier order by c.tier";
        String pruned = "select c.tier as tier, c.visits as visits from Client c where c.id = 7";

        List<Tuple> counted = fixture().sharded.fanOut().createQuery(one, Tuple.class).getResultList();
        List<Tuple> perTier = fixture().sharded.fanOut().entityManager().createQuery(several, Tuple.class)
                .getResultList();
        List<Tuple> ofOneClient = fixture().sharded.fanOut().createQuery(pruned, Tuple.class).getResultList();

        assertSameRows(one, counted, oneDatabase(one, Tuple.class));
        assertSameRows(several, perTier, oneDatabase(several, Tuple.class));
        assertSameRows(pruned, ofOneClient, oneDatabase(pruned, Tuple.class));
        assertThat(counted.get(0).get("n")).isInstanceOf(Long.class);
        assertThat(perTier.get(0).get("total")).isInstanceOf(Long.class);
        assertThat(ofOneClient.get(0).get("visits")).isInstanceOf(Short.class);
    }

    /** {@code select sum(c.tier) from Client c where c.createdAt is not null}, its SUM an Integer or a Long. */
    private static CriteriaQuery<Number> sumOfTiers(HibernateCriteriaBuilder cb, boolean asLong) {
        CriteriaQuery<Number> query = cb.createQuery(Number.class);
        Root<Client> c = query.from(Client.class);
        Expression<Integer> tier = c.get("tier");
        return query.select(asLong ? cb.sumAsLong(tier) : cb.sum(tier)).where(cb.isNotNull(c.get("createdAt")));
    }

    private List<?> fanOut(ClientAggregateQuery query, Api api, boolean throughEntityManager) {
        FanOutQueries queries = fixture().sharded.fanOut();
        if (throughEntityManager) {
            EntityManager entityManager = queries.entityManager();
            return api == Api.JPQL
                    ? entityManager.createQuery(query.jpql(), query.jpqlResultType()).getResultList()
                    : entityManager.createQuery(query.criteria(entityManager.getCriteriaBuilder())).getResultList();
        }
        return api == Api.JPQL ? queries.createQuery(query.jpql(), query.jpqlResultType()).getResultList()
                : queries.createQuery(query.criteria(queries.criteriaBuilder())).getResultList();
    }

    /** The query on one database, run alone: translated afresh, never with a plan another query left. */
    private List<?> oneDatabase(ClientAggregateQuery query, Api api) {
        return fixture().onReference(session -> {
            SelectionQuery<?> selection = api == Api.JPQL
                    ? session.createSelectionQuery(query.jpql(), query.jpqlResultType())
                    : session.createQuery(query.criteria(session.getCriteriaBuilder()));
            return selection.setQueryPlanCacheable(false).getResultList();
        });
    }

    private List<Object> oneDatabase(String jpql) {
        return oneDatabase(jpql, Object.class);
    }

    private <T> List<T> oneDatabase(String jpql, Class<T> resultType) {
        return fixture().onReference(session -> session.createSelectionQuery(jpql, resultType)
                .setQueryPlanCacheable(false).getResultList());
    }

    /**
     * Null when both give the same rows (each a Tuple, an array or a value, as the other's; values and their Java
     * types), otherwise both; a failure counts as a mismatch.
     */
    private static String compare(Supplier<List<?>> expectedRows, Supplier<List<?>> actualRows) {
        List<Object> expected = described(expectedRows.get());
        List<Object> actual;
        try {
            actual = described(actualRows.get());
        }
        catch (RuntimeException e) {
            return "\n  one database " + expected + "\n  fan-out threw " + e;
        }
        return expected.equals(actual) ? null : "\n  one database " + expected + "\n  fan-out      " + actual;
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
