package org.atomicshards.benchmarks.scale;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Fan-out latency as the shard count grows: {@code select count(o) from PurchaseOrder o} and
 * {@code order by placedAt} first {@value #LIMIT} rows over {@code shards} in-memory H2 databases of
 * {@value #ORDERS_PER_SHARD} orders each, on a factory with the library's default pool and fan-out settings (what a
 * user who tunes nothing runs). No statement delay: the figures are the per-shard cost of a fan-out itself.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ScaleFanOutBenchmark {

    public static final long ORDERS_PER_SHARD = 100;
    public static final int LIMIT = 20;

    static final String COUNT = "select count(o) from PurchaseOrder o";
    static final String BY_PLACED_AT = "select o from PurchaseOrder o order by o.placedAt";

    @Param({"4", "16", "64", "256"})
    public int shards;

    private H2Shards databases;
    private ShardedSessionFactory factory;
    private FanOutQueries queries;

    @Setup(Level.Trial)
    public void setUp() {
        OrderDataSet data = new OrderDataSet(shards, ORDERS_PER_SHARD);
        databases = H2Shards.createUnpooled("scale", shards);
        factory = AtomicShardsFactories.buildWithDefaults(databases, Policies.hash());
        DataLoader.loadOrders(databases,
                DataLoader.loadCustomers(databases, data.customers(), AtomicShardsFactories.placement(factory)),
                data.ordersPerShard());
        queries = factory.fanOut();
        data.checkFirstPlaced(firstTwenty(), LIMIT);
        if (countAll() != data.totalOrders()) {
            throw new IllegalStateException("Wrong count: expected " + data.totalOrders() + ", got " + countAll());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        factory.close();
        databases.close();
    }

    @Benchmark
    public long countAll() {
        return queries.createQuery(COUNT, Long.class).getSingleResult();
    }

    @Benchmark
    public List<PurchaseOrder> firstTwenty() {
        return queries.createQuery(BY_PLACED_AT, PurchaseOrder.class).setMaxResults(LIMIT).getResultList();
    }
}
