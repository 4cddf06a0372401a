package org.atomicshards.benchmarks.reads;

import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;

import javax.sql.DataSource;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.atomicshards.benchmarks.support.ShardingSphereDataSources;
import org.hibernate.SessionFactory;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MySQLDialect;

/**
 * The peer's fan-out: Hibernate's query through ShardingSphere-JDBC 5.5.2, which sends it to every data source
 * (the query names no sharding column) and merges the ordered results with its stream merger, applying LIMIT after
 * the merge.
 */
public final class ShardingSphereOrderReads implements OrderReads {

    private final ShardDatabases shards;
    private final DataSource shardingSphere;
    private final SessionFactory sessionFactory;

    /** On in-memory H2 shards in MySQL mode whose every statement waits {@code statementDelay}. */
    public ShardingSphereOrderReads(OrderDataSet data, Duration statementDelay) {
        this(data, H2Shards.create("reads_ss", data.shards(), H2Mode.MYSQL, true, statementDelay),
                MySQLDialect.class);
    }

    /**
     * On {@code shards} (created empty for {@code data}, closed by {@link #close()}), Hibernate speaking
     * {@code dialect} through ShardingSphere.
     */
    public ShardingSphereOrderReads(OrderDataSet data, ShardDatabases shards, Class<? extends Dialect> dialect) {
        this.shards = shards;
        DataLoader.loadOrders(shards,
                DataLoader.loadCustomers(shards, data.customers(), KeyPlacement.modulo(data.shards())),
                data.ordersPerShard());
        shardingSphere = ShardingSphereDataSources.create(shards.pools());
        sessionFactory = HibernateFactories.build(shardingSphere, dialect, false);
    }

    @Override
    public List<PurchaseOrder> firstPlaced(int limit) {
        return HibernateOrderQueries.firstPlaced(sessionFactory, limit);
    }

    @Override
    public StreamDigest streamAllByPlacedAt(LongConsumer afterEachRow) {
        return HibernateOrderQueries.streamAllByPlacedAt(sessionFactory, afterEachRow);
    }

    @Override
    public void close() {
        sessionFactory.close();
        ShardingSphereDataSources.close(shardingSphere);
        shards.close();
    }
}
