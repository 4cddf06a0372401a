package org.atomicshards.benchmarks.unitofwork;

import java.time.Duration;

import javax.sql.DataSource;

import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardingSphereDataSources;
import org.hibernate.SessionFactory;
import org.hibernate.dialect.MySQLDialect;

/**
 * The peer: the same Hibernate 7 over ShardingSphere-JDBC 5.5.2 on {@link #SHARDS} H2 databases in MySQL mode with
 * Hibernate's {@code MySQLDialect} (ShardingSphere parses H2 traffic with its MySQL grammar). ShardingSphere's
 * logical connections start in auto-commit mode whatever the pools below do, so Hibernate switches auto-commit per
 * transaction here, as it does over any such data source.
 */
public final class ShardingSphereSide implements UnitOfWorkSide {

    private final H2Shards shards;
    private final DataSource shardingSphere;
    private final SessionFactory sessionFactory;

    public ShardingSphereSide() {
        shards = H2Shards.create("uow_ss", SHARDS, H2Mode.MYSQL, false, Duration.ZERO);
        DataLoader.loadCustomers(shards, CUSTOMERS, KeyPlacement.modulo(SHARDS));
        shardingSphere = ShardingSphereDataSources.create(shards.pools());
        sessionFactory = HibernateFactories.build(shardingSphere, MySQLDialect.class, false);
    }

    H2Shards shards() {
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
