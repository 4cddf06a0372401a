package org.atomicshards.hibernate;

import java.util.Objects;

import jakarta.persistence.EntityManager;
import jakarta.persistence.criteria.CriteriaQuery;
import org.atomicshards.hibernate.internal.fanout.FanOutEngine;
import org.atomicshards.hibernate.internal.fanout.FanOutEntityManagers;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.SessionFactory;

/**
 * Runs read queries across shards: the entry point of fan-out. One per sharded session factory; thread-safe;
 * {@link #close()} it with the factory (it stops its executor threads).
 *
 * <pre>{@code
 * CriteriaBuilder cb = queries.criteriaBuilder();
 * CriteriaQuery<Order> q = cb.createQuery(Order.class);
 * Root<Order> o = q.from(Order.class);
 * q.where(cb.equal(o.get("status"), "LATE")).orderBy(cb.desc(o.get("placedAt")));
 * List<Order> late = queries.createQuery(q).setMaxResults(50).getResultList();   // merged across shards
 * }</pre>
 *
 * <p>Queries are planned from Hibernate's query tree (SQM), never from SQL text. A query is checked and rewritten
 * before any shard is asked; a construct whose result across shards cannot equal one database's answer is
 * rejected with an {@link UnsupportedFanOutQueryException} naming it.
 */
public final class FanOutQueries implements AutoCloseable {

    private final SessionFactory sessionFactory;
    private final FanOutEngine engine;

    private FanOutQueries(SessionFactory sessionFactory, FanOutEngine engine) {
        this.sessionFactory = sessionFactory;
        this.engine = engine;
    }

    /**
     * @param sessionFactory a multi-tenant session factory whose tenant identifiers are the router's
     *                       {@link ShardId}s
     * @param router         the topology and key routing of that factory
     * @param settings       executor, timeout, policy, fetch size, string order
     */
    public static FanOutQueries create(SessionFactory sessionFactory, ShardRouter router, FanOutSettings settings) {
        Objects.requireNonNull(sessionFactory, "sessionFactory");
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(settings, "settings");
        return new FanOutQueries(sessionFactory, new FanOutEngine(sessionFactory, router, settings));
    }

    /** The criteria builder to build queries with (the factory's own; queries need no session). */
    public jakarta.persistence.criteria.CriteriaBuilder criteriaBuilder() {
        return sessionFactory.getCriteriaBuilder();
    }

    /** A fan-out query over a criteria query; the criteria query is not modified and can be reused. */
    public <T> ShardedQuery<T> createQuery(CriteriaQuery<T> criteria) {
        return engine.createQuery(criteria);
    }

    /** A fan-out query over an HQL/JPQL select statement, with named ({@code :p}) or positional parameters. */
    public <T> ShardedQuery<T> createQuery(String hql, Class<T> resultType) {
        return engine.createQuery(hql, resultType);
    }

    /**
     * An {@code EntityManager} bound to no shard: {@code createQuery} (criteria, HQL, typed HQL) returns a
     * {@link jakarta.persistence.TypedQuery} that fans out; metadata methods ({@code getCriteriaBuilder},
     * {@code getMetamodel}) work; anything that needs a shard (persist, find, locks, transactions, updates) throws
     * {@link UnboundEntityManagerException}. Cheap to create; holds no connection.
     */
    public EntityManager entityManager() {
        return FanOutEntityManagers.create(sessionFactory, engine);
    }

    /** The settings these queries run with. */
    public FanOutSettings settings() {
        return engine.settings();
    }

    /** Threads of the fan-out executor currently running a shard query (0 with a supplied executor). */
    public int activeThreads() {
        return engine.activeThreads();
    }

    /** Stops the executor this object created (a supplied executor is left alone). */
    @Override
    public void close() {
        engine.close();
    }
}
