package org.atomicshards.benchmarks.unitofwork;

import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.hibernate.Session;
import org.hibernate.SessionFactory;

/**
 * A diagnostic baseline: {@link PlainHibernateSide}'s one database (H2 unless a {@link Backend} is given), but with Hibernate's multi-tenancy switched on
 * (a multi-tenant connection provider whose one tenant is that database, and every session opened for that tenant),
 * as Atomic Shards runs Hibernate. The ratio of this side to the plain one is what Hibernate's multi-tenant path
 * costs by itself; the ratio of Atomic Shards on one shard to this side is what the library adds on top.
 */
public final class PlainMultiTenantSide implements UnitOfWorkSide {

    private static final String TENANT = "only";

    private final ShardDatabases database;
    private final SessionFactory sessionFactory;

    public PlainMultiTenantSide(Backend backend) {
        database = backend.create("uow_plain_mt", 1, false, false, POOL_SIZE);
        DataLoader.loadCustomers(database, CUSTOMERS, KeyPlacement.single());
        sessionFactory = HibernateFactories.buildMultiTenant(database.pool(0), TENANT);
    }

    ShardDatabases database() {
        return database;
    }

    @Override
    public int placeOrder(OrderRequest request) {
        try (Session session = sessionFactory.withOptions().tenantIdentifier(TENANT).openSession()) {
            return session.fromTransaction(transaction -> UnitOfWork.placeOrder(session, request));
        }
    }

    @Override
    public void close() {
        sessionFactory.close();
        database.close();
    }
}
