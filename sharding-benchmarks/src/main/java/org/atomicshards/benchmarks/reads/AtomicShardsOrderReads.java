package org.atomicshards.benchmarks.reads;

import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardedResultStream;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * Atomic Shards' fan-out: the same HQL through the factory's {@link FanOutQueries} on a HASH-sharded factory. The query names no
 * shard key, so it runs on every shard (in parallel on a pool as large as the shard count, or one shard after the
 * other under {@link ShardAccess#SEQUENTIAL}) and the shards' ordered results are merged; LIMIT is pushed to each
 * shard and applied again after the merge.
 */
public final class AtomicShardsOrderReads implements OrderReads {

    private final ShardDatabases shards;
    private final ShardedSessionFactory factory;
    private final FanOutQueries queries;

    /** On in-memory H2 shards whose every statement waits {@code statementDelay}. */
    public AtomicShardsOrderReads(OrderDataSet data, Duration statementDelay, ShardAccess access) {
        this(data, H2Shards.createUnpooled("reads_as", data.shards(), true, statementDelay), access,
                H2Shards.POOL_SIZE);
    }

    /**
     * On {@code shards} (created empty for {@code data}, closed by {@link #close()}), with pools of
     * {@code poolSize} connections each.
     */
    public AtomicShardsOrderReads(OrderDataSet data, ShardDatabases shards, ShardAccess access, int poolSize) {
        this.shards = shards;
        factory = AtomicShardsFactories.build(shards, Policies.hash(), builder -> builder
                .poolSize(poolSize)
                .maxTotalConnections(poolSize * shards.count())
                .fanOut(FanOutSettings.builder().access(access).parallelism(data.shards()).build()));
        DataLoader.loadOrders(shards,
                DataLoader.loadCustomers(shards, data.customers(), AtomicShardsFactories.placement(factory)),
                data.ordersPerShard());
        queries = factory.fanOut();
    }

    @Override
    public List<PurchaseOrder> firstPlaced(int limit) {
        return queries.createQuery(HibernateOrderQueries.BY_PLACED_AT, PurchaseOrder.class)
                .setMaxResults(limit)
                .getResultList();
    }

    @Override
    public StreamDigest streamAllByPlacedAt(LongConsumer afterEachRow) {
        StreamDigest.Builder digest = new StreamDigest.Builder();
        try (ShardedResultStream<PurchaseOrder> orders =
                     queries.createQuery(HibernateOrderQueries.BY_PLACED_AT, PurchaseOrder.class).openStream()) {
            orders.stream().forEach(order -> {
                digest.accept(order);
                afterEachRow.accept(digest.rows());
            });
        }
        return digest.build();
    }

    @Override
    public void close() {
        factory.close();
        shards.close();
    }
}
