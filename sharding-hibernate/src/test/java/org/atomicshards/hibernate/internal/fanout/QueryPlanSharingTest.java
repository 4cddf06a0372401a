package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Nulls;
import jakarta.persistence.criteria.Root;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardedQuery;
import org.hibernate.query.SortDirection;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;
import org.hibernate.query.criteria.JpaExpression;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fan-out translates its query once per query shape, not once per shard: the first shard's execution of a new shape
 * puts its plan (the SQL and its parameter binders) in Hibernate's query plan cache, and every other shard's execution,
 * and every later run of the shape, takes it from there. Counted with Hibernate's statistics on the fixture's factory,
 * which every shard's session shares; the shards run one after the other so that the first run's count is exact (in
 * parallel, shards that start together may each translate a shape that is not cached yet). Each test's shape is its
 * own, so no other test has cached it.
 */
class QueryPlanSharingTest {

    private static final int SHARDS = 4;
    private static final int RUNS = 5;

    private static final ShardFixture FIXTURE = ShardFixture.h2();
    private static final ShardFixture.Layout SEQUENTIAL = FIXTURE.privateLayout("plans", SHARDS,
            FanOutSettings.builder().access(ShardAccess.SEQUENTIAL).build());

    private final Statistics statistics = FIXTURE.sessionFactory().getStatistics();

    @AfterAll
    static void closeLayout() {
        SEQUENTIAL.queries().close();
    }

    @BeforeEach
    void countPlans() {
        statistics.setStatisticsEnabled(true);
    }

    @AfterEach
    void stopCounting() {
        statistics.setStatisticsEnabled(false);
    }

    @Test
    void anHqlShapeRunAgainTranslatesNothingOnAnyShard() {
        List<PlanUse> uses = runs(run -> SEQUENTIAL.queries()
                .createQuery("select p from Purchase p where p.amount > :min and p.quantity <> -17"
                        + " order by p.amount desc, p.id", Object.class)
                .setParameter("min", 20 + run).setMaxResults(10));
        // Hibernate counts the HQL string's interpretation as a plan too: parsed in the first run, found in the others
        assertThat(uses.get(0)).as("first run").isEqualTo(new PlanUse(SHARDS - 1, 2));
        assertThat(uses.subList(1, RUNS)).as("runs after the first").containsOnly(new PlanUse(SHARDS + 1, 0));
    }

    @Test
    void aCriteriaQueryBuiltAgainFindsThePlanOfItsShapeOnEveryShard() {
        CriteriaBuilder builder = FIXTURE.sessionFactory().getCriteriaBuilder();
        List<PlanUse> uses = runs(run -> {
            CriteriaQuery<Purchase> criteria = builder.createQuery(Purchase.class);
            Root<Purchase> purchase = criteria.from(Purchase.class);
            criteria.where(builder.gt(purchase.get("amount"), builder.parameter(Integer.class, "min")),
                            builder.notEqual(purchase.get("quantity"), -19))
                    .orderBy(builder.asc(purchase.get("id")));
            return SEQUENTIAL.queries().createQuery(criteria).setParameter("min", 20 + run).setMaxResults(10);
        });
        assertThat(uses.get(0)).as("first run").isEqualTo(new PlanUse(SHARDS - 1, 1));
        assertThat(uses.subList(1, RUNS)).as("runs after the first").containsOnly(new PlanUse(SHARDS, 0));
    }

    @Test
    void aCriteriaQuerySortedIgnoringCaseFindsThePlanOfItsShapeOnEveryShard() {
        HibernateCriteriaBuilder builder = FIXTURE.sessionFactory().getCriteriaBuilder();
        List<PlanUse> uses = runs(run -> {
            CriteriaQuery<Purchase> criteria = builder.createQuery(Purchase.class);
            Root<Purchase> purchase = criteria.from(Purchase.class);
            criteria.where(builder.gt(purchase.get("amount"), builder.parameter(Integer.class, "min")),
                            builder.notEqual(purchase.get("quantity"), -23))
                    .orderBy(builder.sort((JpaExpression<?>) purchase.get("category"), SortDirection.ASCENDING,
                            Nulls.LAST, true), builder.asc(purchase.get("id")));
            return SEQUENTIAL.queries().createQuery(criteria).setParameter("min", 20 + run).setMaxResults(10);
        });
        // the shards sort by lower(category), which Hibernate's plan cache tells apart from category (see
        // ShardStatements), so the shape is cached as any other
        assertThat(uses.get(0)).as("first run").isEqualTo(new PlanUse(SHARDS - 1, 1));
        assertThat(uses.subList(1, RUNS)).as("runs after the first").containsOnly(new PlanUse(SHARDS, 0));
    }

    /**
     * Runs {@link #RUNS} fresh queries of one shape, {@code query} building run {@code i}'s (its parameter differs);
     * the plan cache's hits and misses of each run.
     */
    private List<PlanUse> runs(IntFunction<ShardedQuery<?>> query) {
        return IntStream.range(0, RUNS).mapToObj(run -> {
            long hits = statistics.getQueryPlanCacheHitCount();
            long misses = statistics.getQueryPlanCacheMissCount();
            assertThat(query.apply(run).getResultList()).hasSize(10);
            return new PlanUse(statistics.getQueryPlanCacheHitCount() - hits,
                    statistics.getQueryPlanCacheMissCount() - misses);
        }).toList();
    }

    private record PlanUse(long hits, long misses) {
    }
}
