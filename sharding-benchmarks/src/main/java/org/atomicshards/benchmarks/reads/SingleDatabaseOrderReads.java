package org.atomicshards.benchmarks.reads;

import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.hibernate.SessionFactory;

/**
 * Plain Hibernate on one H2 database holding one shard's worth of orders: the "one shard" latency a parallel
 * fan-out is measured against.
 */
public final class SingleDatabaseOrderReads implements OrderReads {

    private final ShardDatabases database;
    private final SessionFactory sessionFactory;

    /** @param data the data set whose one shard this database holds ({@code data.shards()} must be 1) */
    public SingleDatabaseOrderReads(OrderDataSet data, Duration statementDelay) {
        this(data, H2Shards.create("reads_single", 1, H2Mode.NATIVE, true, statementDelay));
    }

    /**
     * @param data     the data set whose one shard this database holds ({@code data.shards()} must be 1)
     * @param database one empty database, closed by {@link #close()}
     */
    public SingleDatabaseOrderReads(OrderDataSet data, ShardDatabases database) {
        if (data.shards() != 1 || database.count() != 1) {
            database.close();
            throw new IllegalArgumentException("A single database holds a one-shard data set, not " + data);
        }
        this.database = database;
        DataLoader.loadOrders(database, DataLoader.loadCustomers(database, data.customers(), KeyPlacement.single()),
                data.ordersPerShard());
        sessionFactory = HibernateFactories.build(database.pool(0), null, false);
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
        database.close();
    }
}
