package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.junit.jupiter.api.Test;

class FanOutSmokeTest {

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
