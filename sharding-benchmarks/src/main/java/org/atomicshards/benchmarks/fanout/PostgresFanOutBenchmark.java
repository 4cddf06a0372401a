package org.atomicshards.benchmarks.fanout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.AtomicShardsOrderReads;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.reads.OrderReads;
import org.atomicshards.benchmarks.reads.ShardingSphereOrderReads;
import org.atomicshards.benchmarks.reads.SingleDatabaseOrderReads;
import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.PostgresShards;
import org.atomicshards.hibernate.ShardAccess;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Fan-out latency on PostgreSQL: {@code order by placedAt} with {@value #LIMIT} results across {@value #SHARDS}
 * databases of {@value #ORDERS_PER_SHARD} orders on one local server (see {@link PostgresShards}), against plain
 * Hibernate on one such database and ShardingSphere-JDBC on the same shards. No artificial delay: each statement
 * costs a real local round trip and PostgreSQL's own work. Pools hold {@value #POOL_SIZE} connections per shard (a
 * fan-out uses one), so a run stays far below the server's connection limit.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PostgresFanOutBenchmark {

    public static final int SHARDS = 16;
    public static final long ORDERS_PER_SHARD = 1_000;
    public static final int LIMIT = 20;
    public static final int POOL_SIZE = 2;

    /** Holds one side's reads for a trial; checks its answer once before measuring. */
    @State(Scope.Benchmark)
    public abstract static class ReadsState {
        OrderReads reads;

        abstract OrderDataSet data();

        abstract OrderReads create(OrderDataSet data);

        @Setup(Level.Trial)
        public void setUp() {
            reads = create(data());
            data().checkFirstPlaced(reads.firstPlaced(LIMIT), LIMIT);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            reads.close();
        }
    }

    /** Plain Hibernate on one database holding one shard's orders. */
    public static class OneShard extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(1, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new SingleDatabaseOrderReads(data,
                    Backend.POSTGRESQL.create("fo_single", 1, false, true, POOL_SIZE));
        }
    }

    /** ShardingSphere-JDBC over all the shards. */
    public static class ShardingSphere extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(SHARDS, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new ShardingSphereOrderReads(data,
                    Backend.POSTGRESQL.create("fo_ss", SHARDS, true, true, POOL_SIZE),
                    Backend.POSTGRESQL.shardingSphereDialect());
        }
    }

    /** Atomic Shards' fan-out with parallel access (a thread per shard). */
    public static class AtomicShardsParallel extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(SHARDS, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new AtomicShardsOrderReads(data, Backend.POSTGRESQL.createWithoutPools("fo_as", SHARDS),
                    ShardAccess.PARALLEL, POOL_SIZE);
        }
    }

    @Benchmark
    public List<PurchaseOrder> atomicShardsParallel(AtomicShardsParallel state) {
        return state.reads.firstPlaced(LIMIT);
    }

    @Benchmark
    public List<PurchaseOrder> oneShard(OneShard state) {
        return state.reads.firstPlaced(LIMIT);
    }

    @Benchmark
    public List<PurchaseOrder> shardingSphere(ShardingSphere state) {
        return state.reads.firstPlaced(LIMIT);
    }
}
