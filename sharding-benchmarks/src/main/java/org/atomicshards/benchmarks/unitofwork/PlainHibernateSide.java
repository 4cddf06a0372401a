package org.atomicshards.benchmarks.unitofwork;

import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.hibernate.SessionFactory;

/**
 * The baseline: plain Hibernate 7 on one database (H2 unless a {@link Backend} is given) holding every customer, with a HikariCP pool that hands out
 * connections with auto-commit off (as Atomic Shards' pools do).
 */
public final class PlainHibernateSide implements UnitOfWorkSide {

    private final ShardDatabases database;
    private final SessionFactory sessionFactory;

    public PlainHibernateSide() {
        this(Backend.H2);
    }

    public PlainHibernateSide(Backend backend) {
        database = backend.create("uow_plain", 1, false, false, POOL_SIZE);
        DataLoader.loadCustomers(database, CUSTOMERS, KeyPlacement.single());
        sessionFactory = HibernateFactories.build(database.pool(0), null, true);
    }

    ShardDatabases database() {
        return database;
    }

    @Override
    public int placeOrder(OrderRequest request) {
        return sessionFactory.fromTransaction(session -> UnitOfWork.placeOrder(session, request));
    }

    @Override
    public void close() {
        sessionFactory.close();
        database.close();
    }
}
