package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every construct whose merge across shards could not equal one database's answer is rejected before any shard is
 * asked, with an exception naming it. On one shard (a key predicate) the same query runs unchanged.
 */
class UnsupportedConstructsTest {

    private final ShardFixture fixture = ShardFixture.h2();
    private final ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.HASH, 3);

    static Stream<Arguments> rejected() {
        return Stream.of(
                Arguments.of("select p.id, row_number() over (order by p.id) from Purchase p",
                        "a window function"),
                Arguments.of("select sum(p.amount) * 2 from Purchase p", "an expression over an aggregate"),
                Arguments.of("select p.category, count(p) + 1 from Purchase p group by p.category",
                        "an expression over an aggregate"),
                Arguments.of("select listagg(p.category, ',') within group (order by p.id) from Purchase p",
                        "the aggregate function listagg()"),
                Arguments.of("select bit_or(p.price) from Purchase p", "bit_or(...) over a BigDecimal value"),
                Arguments.of("select p.category, bit_and(p.category) from Purchase p group by p.category",
                        "bit_and(...) over a String value"),
                Arguments.of("select avg(p.amount) filter (where p.quantity > 2) from Purchase p",
                        "avg(...) with a FILTER clause"),
                Arguments.of("select p.id from Purchase p union select a.id from Account a",
                        "UNION/INTERSECT/EXCEPT"),
                Arguments.of("with x as (select p.id as pid from Purchase p) select y.pid from x y",
                        "a WITH (common table expression) clause"),
                Arguments.of("select a from Account a join fetch a.purchases", "a fetch join of a collection"),
                Arguments.of("select p from Purchase p where p.amount > (select avg(q.amount) from Purchase q)",
                        "a subquery over the sharded entity Purchase that is not correlated"),
                Arguments.of("select c from Country c where exists (select p from Purchase p where p.amount > 30)",
                        "a subquery over the sharded entity Purchase that is not correlated"),
                Arguments.of("select p from Purchase p, Account a where p.accountId = a.id",
                        "a FROM clause with 2 sharded roots"),
                Arguments.of("select p from Purchase p join Account a on a.id = p.accountId",
                        "an entity join to the sharded entity Account"),
                Arguments.of("select distinct p.category from Purchase p order by p.amount",
                        "ORDER BY an expression that is not in the SELECT DISTINCT list"),
                Arguments.of("select p from Purchase p order by p.amount fetch first 5 rows with ties",
                        "FETCH ROWS_WITH_TIES"),
                Arguments.of("select p from Purchase p order by p.account", "ORDER BY the entity Account"),
                Arguments.of("select p.category, count(p) from Purchase p group by p.category"
                        + " having p.category like 'b%'", "the HAVING predicate Like"),
                Arguments.of("select count(distinct p.account) from Purchase p",
                        "an aggregate over DISTINCT"),
                Arguments.of("update Purchase p set p.amount = 1", "an update or delete statement"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("rejected")
    void isRejectedNamingTheConstruct(String hql, String construct) {
        assertThatThrownBy(() -> layout.queries().createQuery(hql, Object.class).getResultList())
                .isInstanceOf(UnsupportedFanOutQueryException.class)
                .hasMessageContaining("Cannot run this query across shards: " + construct);
        for (ShardId shard : layout.router().shards()) {
            assertThat(fixture.pool(shard).getHikariPoolMXBean().getActiveConnections()).isZero();
        }
    }

    @Test
    void pagingTwiceIsRejected() {
        assertThatThrownBy(() -> layout.queries().createQuery("select p from Purchase p order by p.id limit 5",
                Purchase.class).setMaxResults(3).getResultList())
                .isInstanceOf(UnsupportedFanOutQueryException.class)
                .hasMessageContaining("OFFSET/FETCH in the query together with setFirstResult/setMaxResults");
    }

    @Test
    void aCriteriaQueryWithAnExpressionOverAnAggregateIsRejected() {
        CriteriaBuilder cb = fixture.sessionFactory.getCriteriaBuilder();
        CriteriaQuery<Object> q = cb.createQuery(Object.class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(cb.quot(cb.sum(p.get("amount")), cb.count(p)));

        assertThatThrownBy(() -> layout.queries().createQuery(q).getResultList())
                .isInstanceOf(UnsupportedFanOutQueryException.class)
                .hasMessageContaining("an expression over an aggregate")
                .satisfies(e -> assertThat(((UnsupportedFanOutQueryException) e).construct())
                        .startsWith("an expression over an aggregate"));
    }

    @Test
    void onOneShardTheSameConstructsRunUnchanged() {
        String hql = "select p.id, row_number() over (order by p.id), sum(p.amount) over ()"
                + " from Purchase p where p.accountId = :key order by p.id";
        List<Object[]> merged = layout.queries().createQuery(hql, Object[].class).setParameter("key", 42L)
                .getResultList();
        List<Object[]> oracle = fixture.onOracle(s -> s.createSelectionQuery(hql, Object[].class)
                .setParameter("key", 42L).getResultList());

        assertThat(layout.queries().createQuery(hql, Object[].class).setParameter("key", 42L).targetShards())
                .containsExactly(layout.router().shardOf(42L));
        assertThat(Rows.normalize(merged)).isEqualTo(Rows.normalize(oracle)).isNotEmpty();
    }
}
