package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.NoResultException;
import jakarta.persistence.NonUniqueResultException;
import jakarta.persistence.Query;
import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.ParameterExpression;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.Session;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The entity manager bound to no shard: what Spring Data's SimpleJpaRepository does with it (criteria queries with
 * paging, count queries, streams, hints, parameters) fans out; an entity manager bound to a shard runs there.
 */
class FanOutEntityManagerTest {

    private final ShardFixture fixture = ShardFixture.h2();
    private final ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.RANGE, 3);
    private final EntityManager em = layout.queries().entityManager();
    private final CriteriaBuilder cb = em.getCriteriaBuilder();

    private CriteriaQuery<Purchase> pageQuery(ParameterExpression<Integer> minimum) {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        return q.select(p).where(cb.ge(p.get("amount"), minimum)).orderBy(cb.asc(p.get("price")),
                cb.desc(p.get("id")));
    }

    @Nested
    class LikeSpringDataRepositories {

        @Test
        void aPageOfACriteriaQuery() {
            ParameterExpression<Integer> minimum = cb.parameter(Integer.class);
            CriteriaQuery<Purchase> q = pageQuery(minimum);
            TypedQuery<Purchase> query = em.createQuery(q).setParameter(minimum, 12).setFirstResult(40)
                    .setMaxResults(20);

            List<Purchase> page = query.getResultList();

            List<Purchase> oracle = fixture.onOracle(s -> s.createQuery(q).setParameter(minimum, 12)
                    .setFirstResult(40).setMaxResults(20).getResultList());
            assertThat(Rows.normalize(page)).isEqualTo(Rows.normalize(oracle)).hasSize(20);
            assertThat(query.getFirstResult()).isEqualTo(40);
            assertThat(query.getMaxResults()).isEqualTo(20);
            assertThat(query.isBound(minimum)).isTrue();
            assertThat(query.getParameterValue(minimum)).isEqualTo(12);
            assertThat(query.getParameters()).containsExactly(minimum);
        }

        @Test
        void theCountQuery() {
            CriteriaQuery<Long> count = cb.createQuery(Long.class);
            Root<Purchase> p = count.from(Purchase.class);
            count.select(cb.count(p)).where(cb.isNotNull(p.get("category")));

            Long total = em.createQuery(count).getSingleResult();

            assertThat(total).isEqualTo(fixture.onOracle(s -> s.createQuery(count).getSingleResult()));
        }

        @Test
        void aStreamOfAQuery() {
            ParameterExpression<Integer> minimum = cb.parameter(Integer.class);
            try (Stream<Purchase> stream = em.createQuery(pageQuery(minimum)).setParameter(minimum, 30)
                    .getResultStream()) {
                assertThat(stream.map(Purchase::getAmount)).isNotEmpty().allMatch(amount -> amount >= 30);
            }
        }

        @Test
        void hqlWithAndWithoutAResultType() {
            Query untyped = em.createQuery("select p.category, count(p) from Purchase p group by p.category"
                    + " order by p.category nulls first");
            TypedQuery<Long> typed = em.createQuery("select count(p) from Purchase p where p.quantity = :q",
                    Long.class).setParameter("q", 2);

            assertThat(Rows.normalize(untyped.getResultList())).isEqualTo(Rows.normalize(fixture.onOracle(s ->
                    s.createQuery("select p.category, count(p) from Purchase p group by p.category"
                            + " order by p.category nulls first", Object[].class).getResultList())));
            assertThat(typed.getSingleResult()).isEqualTo(fixture.onOracle(s -> s.createQuery(
                    "select count(p) from Purchase p where p.quantity = 2", Long.class).getSingleResult()));
        }

        @Test
        void aNamedQueryFansOutAndAnUnknownNameIsAnIllegalArgument() {
            List<Purchase> books = em.createNamedQuery("Purchase.byCategory", Purchase.class)
                    .setParameter("category", "books").getResultList();

            assertThat(Rows.normalize(books)).isEqualTo(Rows.normalize(fixture.onOracle(s -> s.createNamedQuery(
                    "Purchase.byCategory", Purchase.class).setParameter("category", "books").getResultList())))
                    .isNotEmpty();
            assertThatThrownBy(() -> em.createNamedQuery("Purchase.missing"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Purchase.missing");
        }

        @Test
        void anEntityGraphHintReachesEveryShard() {
            jakarta.persistence.EntityGraph<Purchase> graph = fixture.sessionFactory.createEntityGraph(Purchase.class);
            graph.addAttributeNodes("account");

            List<Purchase> rows = em.createQuery("select p from Purchase p order by p.amount, p.id", Purchase.class)
                    .setHint("jakarta.persistence.fetchgraph", graph).setMaxResults(5).getResultList();

            assertThat(rows).hasSize(5).allSatisfy(row -> assertThat(org.hibernate.Hibernate.isInitialized(
                    row.getAccount())).isTrue());
        }

        @Test
        void singleResultFollowsJpa() {
            assertThatThrownBy(() -> em.createQuery("select p from Purchase p where p.amount > 1000",
                    Purchase.class).getSingleResult()).isInstanceOf(NoResultException.class);
            assertThatThrownBy(() -> em.createQuery("select p from Purchase p", Purchase.class).getSingleResult())
                    .isInstanceOf(NonUniqueResultException.class);
            assertThat(em.createQuery("select p from Purchase p where p.amount > 1000", Purchase.class)
                    .getSingleResultOrNull()).isNull();
        }

        @Test
        void hintsSetTheTimeoutAndThePolicy() {
            TypedQuery<Purchase> query = em.createQuery("select p from Purchase p", Purchase.class)
                    .setHint("jakarta.persistence.query.timeout", 1500)
                    .setHint("org.atomicshards.executionPolicy", "PARTIAL");

            assertThat(query.getTimeout()).isEqualTo(1500);
            assertThat(query.getHints()).containsEntry("org.atomicshards.executionPolicy", ExecutionPolicy.PARTIAL);
            assertThat(query.unwrap(ShardedQuery.class).execute().isComplete()).isTrue();
        }
    }

    @Nested
    class OperationsThatNeedAShard {

        @Test
        void areRejectedNamingTheOperation() {
            assertThatThrownBy(() -> em.find(Purchase.class, 1000L))
                    .isInstanceOf(UnboundEntityManagerException.class).hasMessageContaining("EntityManager.find");
            assertThatThrownBy(() -> em.persist(new Object()))
                    .isInstanceOf(UnboundEntityManagerException.class).hasMessageContaining("persist");
            assertThatThrownBy(em::getTransaction)
                    .isInstanceOf(UnboundEntityManagerException.class).hasMessageContaining("getTransaction");
            assertThatThrownBy(() -> em.createQuery("select p from Purchase p", Purchase.class)
                    .setLockMode(LockModeType.PESSIMISTIC_WRITE))
                    .isInstanceOf(UnsupportedFanOutQueryException.class).hasMessageContaining("lock mode");
            assertThatThrownBy(() -> em.createQuery("select p from Purchase p").executeUpdate())
                    .isInstanceOf(UnboundEntityManagerException.class).hasMessageContaining("executeUpdate");
        }

        @Test
        void metadataAndLifecycleWork() {
            assertThat(em.getMetamodel().entity(Purchase.class)).isNotNull();
            assertThat(em.getEntityManagerFactory()).isSameAs(fixture.sessionFactory);
            assertThat(em.contains(new Object())).isFalse();
            assertThat(em.isOpen()).isTrue();
            em.close();
            assertThat(em.isOpen()).isFalse();
        }
    }

    @Test
    void anEntityManagerBoundToAShardRunsTheSameQueryThere() {
        ShardId shard = layout.router().shards().get(1);
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        q.select(q.from(Purchase.class));

        List<Purchase> local;
        try (Session bound = fixture.sessionFactory.withOptions().tenantIdentifier(shard).openSession()) {
            local = bound.createQuery(q).getResultList();
        }

        assertThat(local).isNotEmpty().allSatisfy(row -> assertThat(layout.router().shardOf(row.getAccountId()))
                .isEqualTo(shard));
        assertThat(em.createQuery(q).getResultList()).hasSize(fixture.data.purchases.size());
    }
}
