package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.ParameterExpression;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedQuery;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Pruning from the WHERE tree: the shards a query runs on, for each kind of key predicate. */
class ShardPruningTest {

    private static final ShardFixture FIXTURE = ShardFixture.h2();
    private static final ShardFixture.Layout RANGE = FIXTURE.layout(TestRouter.Policy.RANGE, 8);
    private static final ShardFixture.Layout HASH = FIXTURE.layout(TestRouter.Policy.HASH, 8);

    private static Set<ShardId> shardsOf(ShardFixture.Layout layout, long... keys) {
        return LongStream.of(keys).mapToObj(layout.router()::shardOf).collect(Collectors.toCollection(
                LinkedHashSet::new));
    }

    private static Set<ShardId> all(ShardFixture.Layout layout) {
        return new LinkedHashSet<>(layout.router().shards());
    }

    static Stream<Arguments> predicates() {
        return Stream.of(
                Arguments.of("no WHERE", "select p from Purchase p", all(HASH), all(RANGE)),
                Arguments.of("key = literal", "select p from Purchase p where p.accountId = 42",
                        shardsOf(HASH, 42), shardsOf(RANGE, 42)),
                Arguments.of("literal = key", "select p from Purchase p where 42 = p.accountId",
                        shardsOf(HASH, 42), shardsOf(RANGE, 42)),
                Arguments.of("key = parameter", "select p from Purchase p where p.accountId = :k",
                        shardsOf(HASH, 7), shardsOf(RANGE, 7)),
                Arguments.of("key IN list", "select p from Purchase p where p.accountId in (3, 120, 399)",
                        shardsOf(HASH, 3, 120, 399), shardsOf(RANGE, 3, 120, 399)),
                Arguments.of("key IN parameter list", "select p from Purchase p where p.accountId in :keys",
                        shardsOf(HASH, 5, 250), shardsOf(RANGE, 5, 250)),
                Arguments.of("key BETWEEN", "select p from Purchase p where p.accountId between 0 and 49",
                        all(HASH), shardsOf(RANGE, 0)),
                Arguments.of("key < literal", "select p from Purchase p where p.accountId < 100",
                        all(HASH), shardsOf(RANGE, 0, 50)),
                Arguments.of("key >= and <=", "select p from Purchase p where p.accountId >= 100"
                        + " and p.accountId <= 199", all(HASH), shardsOf(RANGE, 100, 150)),
                Arguments.of("AND with a non-key", "select p from Purchase p where p.accountId = 42"
                        + " and p.amount > 3", shardsOf(HASH, 42), shardsOf(RANGE, 42)),
                Arguments.of("OR of keys", "select p from Purchase p where p.accountId = 42 or p.accountId = 399",
                        shardsOf(HASH, 42, 399), shardsOf(RANGE, 42, 399)),
                Arguments.of("OR with a non-key", "select p from Purchase p where p.accountId = 42"
                        + " or p.amount > 3", all(HASH), all(RANGE)),
                Arguments.of("NOT key", "select p from Purchase p where not (p.accountId = 42)",
                        all(HASH), all(RANGE)),
                Arguments.of("key <> literal", "select p from Purchase p where p.accountId <> 42",
                        all(HASH), all(RANGE)),
                Arguments.of("NOT IN", "select p from Purchase p where p.accountId not in (1, 2)",
                        all(HASH), all(RANGE)),
                Arguments.of("contradiction", "select p from Purchase p where p.accountId = 1"
                        + " and p.accountId = 399", Set.of(HASH.router().shards().get(0)),
                        Set.of(RANGE.router().shards().get(0))),
                Arguments.of("key of a joined entity", "select p from Purchase p join p.account a where a.id = 42",
                        shardsOf(HASH, 42), shardsOf(RANGE, 42)),
                Arguments.of("root keyed by id", "select a from Account a where a.id = 301",
                        shardsOf(HASH, 301), shardsOf(RANGE, 301)),
                Arguments.of("non-key attribute named like a key", "select p from Purchase p where p.id = 1042",
                        all(HASH), all(RANGE)),
                Arguments.of("reference data only", "select c from Country c",
                        Set.of(HASH.router().shards().get(0)), Set.of(RANGE.router().shards().get(0))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("predicates")
    void targets(String name, String hql, Set<ShardId> onHash, Set<ShardId> onRange) {
        assertThat(bound(HASH.queries().createQuery(hql, Object.class), hql).targetShards()).isEqualTo(onHash);
        assertThat(bound(RANGE.queries().createQuery(hql, Object.class), hql).targetShards()).isEqualTo(onRange);
    }

    private static ShardedQuery<Object> bound(ShardedQuery<Object> query, String hql) {
        if (hql.contains(":keys")) {
            query.setParameter("keys", List.of(5L, 250L));
        }
        if (hql.contains(":k")) {
            query.setParameter("k", 7L);
        }
        return query;
    }

    @Nested
    class CriteriaQueries {

        private final CriteriaBuilder cb = FIXTURE.sessionFactory.getCriteriaBuilder();

        @Test
        void aValueIsReadFromTheTreeAndAParameterFromTheQuery() {
            CriteriaQuery<Purchase> byValue = cb.createQuery(Purchase.class);
            Root<Purchase> p = byValue.from(Purchase.class);
            byValue.where(cb.equal(p.get("accountId"), 42L));
            assertThat(RANGE.queries().createQuery(byValue).targetShards()).isEqualTo(shardsOf(RANGE, 42));

            CriteriaQuery<Purchase> byParameter = cb.createQuery(Purchase.class);
            Root<Purchase> q = byParameter.from(Purchase.class);
            ParameterExpression<Long> key = cb.parameter(Long.class);
            byParameter.where(cb.equal(q.get("accountId"), key));
            ShardedQuery<Purchase> query = RANGE.queries().createQuery(byParameter);
            assertThat(query.targetShards()).as("unbound: all shards").isEqualTo(all(RANGE));
            query.setParameter(key, 333L);
            assertThat(query.targetShards()).isEqualTo(shardsOf(RANGE, 333));
            assertThat(query.getResultList()).isNotEmpty().allSatisfy(row -> assertThat(row.getAccountId())
                    .isEqualTo(333L));
        }

        @Test
        void aNegatedKeyPredicateIsNotUsed() {
            CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
            Root<Purchase> p = q.from(Purchase.class);
            q.where(cb.not(cb.equal(p.get("accountId"), 42L)));
            assertThat(HASH.queries().createQuery(q).targetShards()).isEqualTo(all(HASH));
        }

        @Test
        void anIntegerLiteralForALongKeyStillPrunes() {
            CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
            Root<Purchase> p = q.from(Purchase.class);
            q.where(p.get("accountId").in(1, 2));
            assertThat(HASH.queries().createQuery(q).targetShards()).isEqualTo(shardsOf(HASH, 1, 2));
        }
    }
}
