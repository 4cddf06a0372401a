package org.atomicshards.benchmarks.unitofwork;

import java.time.Duration;

import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.hibernate.SessionFactory;

/**
 * The baseline: plain Hibernate 7 on one H2 database holding every customer, with a HikariCP pool that hands out
 * connections with auto-commit off (as Atomic Shards' pools do).
 */
public final class PlainHibernateSide implements UnitOfWorkSide {

    private final H2Shards database;
    private final SessionFactory sessionFactory;

    public PlainHibernateSide() {
        database = H2Shards.create("uow_plain", 1, H2Mode.NATIVE, false, Duration.ZERO, false);
        DataLoader.loadCustomers(database, CUSTOMERS, KeyPlacement.single());
        sessionFactory = HibernateFactories.build(database.pool(0), null, true);
    }

    H2Shards database() {
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
