package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Merge cases the generator does not produce, each compared with one database. */
class MergeEdgeCasesTest {

    @Test
    void entityOrderByWithPaging() {
        ShardFixture fixture = ShardFixture.h2();
        ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.HASH, 3);
        CriteriaBuilder cb = fixture.sessionFactory.getCriteriaBuilder();
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(p).where(cb.gt(p.get("amount"), 10)).orderBy(cb.desc(p.get("category")), cb.asc(p.get("id")));
        List<Purchase> merged = layout.queries().createQuery(q).setFirstResult(5).setMaxResults(20).getResultList();
        List<Purchase> oracle = fixture.onOracle(s -> s.createQuery(q).setFirstResult(5).setMaxResults(20)
                .getResultList());
        assertThat(Rows.normalize(merged)).isEqualTo(Rows.normalize(oracle)).hasSize(20);
    }

    @ParameterizedTest(name = "HAVING count > {0} without GROUP BY")
    @ValueSource(longs = {5, 100_000})
    void havingWithoutGroupByFiltersTheSingleGroup(long minimum) {
        ShardFixture fixture = ShardFixture.h2();
        ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.RANGE, 3);
        CriteriaBuilder cb = fixture.sessionFactory.getCriteriaBuilder();
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(cb.array(cb.count(p), cb.sum(p.get("quantity")))).having(cb.gt(cb.count(p), minimum));

        List<Object[]> merged = layout.queries().createQuery(q).getResultList();
        List<Object[]> oracle = fixture.onOracle(s -> s.createQuery(q).getResultList());

        assertThat(Rows.normalize(merged)).isEqualTo(Rows.normalize(oracle)).hasSize(minimum < 10 ? 1 : 0);
    }

    @Test
    void groupByHavingAverage() {
        ShardFixture fixture = ShardFixture.h2();
        ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.HASH, 3);
        String hql = "select p.category, count(*), avg(p.amount), sum(p.price), count(distinct p.accountId)"
                + " from Purchase p group by p.category having count(*) > :n order by p.category nulls first";
        List<Object[]> merged = layout.queries().createQuery(hql, Object[].class).setParameter("n", 10L)
                .getResultList();
        List<Object[]> oracle = fixture.onOracle(s -> s.createQuery(hql, Object[].class).setParameter("n", 10L)
                .getResultList());
        assertThat(Rows.normalize(merged)).isEqualTo(Rows.normalize(oracle)).isNotEmpty();
    }
}
