package org.atomicshards.benchmarks.unitofwork;

import javax.sql.DataSource;

import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.atomicshards.benchmarks.support.ShardingSphereDataSources;
import org.hibernate.SessionFactory;

/**
 * The peer: the same Hibernate 7 over ShardingSphere-JDBC 5.5.2 on {@link #SHARDS} databases: H2 in MySQL mode with
 * Hibernate's {@code MySQLDialect} (ShardingSphere parses H2 traffic with its MySQL grammar), or PostgreSQL with
 * {@code PostgreSQLDialect}. ShardingSphere's
 * logical connections start in auto-commit mode whatever the pools below do, so Hibernate switches auto-commit per
 * transaction here, as it does over any such data source.
 */
public final class ShardingSphereSide implements UnitOfWorkSide {

    private final ShardDatabases shards;
    private final DataSource shardingSphere;
    private final SessionFactory sessionFactory;

    public ShardingSphereSide() {
        this(Backend.H2);
    }

    public ShardingSphereSide(Backend backend) {
        shards = backend.create("uow_ss", SHARDS, true, true, POOL_SIZE);
        DataLoader.loadCustomers(shards, CUSTOMERS, KeyPlacement.modulo(SHARDS));
        shardingSphere = ShardingSphereDataSources.create(shards.pools());
        sessionFactory = HibernateFactories.build(shardingSphere, backend.shardingSphereDialect(), false);
    }

    ShardDatabases shards() {
        return shards;
    }

    @Override
    public int placeOrder(OrderRequest request) {
        return sessionFactory.fromTransaction(session -> UnitOfWork.placeOrder(session, request));
    }

    @Override
    public void close() {
        sessionFactory.close();
        ShardingSphereDataSources.close(shardingSphere);
        shards.close();
    }
}
