package org.atomicshards.benchmarks.fanout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.AtomicShardsOrderReads;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.reads.OrderReads;
import org.atomicshards.benchmarks.reads.ShardingSphereOrderReads;
import org.atomicshards.benchmarks.reads.SingleDatabaseOrderReads;
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
 * Fan-out latency: {@code order by placedAt} with {@value #LIMIT} results across {@value #SHARDS} shards whose every
 * statement waits {@link #STATEMENT_DELAY} (a stand-in for a network round trip), against the same query on one
 * such shard. A parallel fan-out should cost about one round trip, a sequential one about sixteen.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FanOutLatencyBenchmark {

    public static final int SHARDS = 16;
    public static final long ORDERS_PER_SHARD = 1_000;
    public static final int LIMIT = 20;
    public static final Duration STATEMENT_DELAY = Duration.ofMillis(5);

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

    /** Plain Hibernate on one delayed database holding one shard's orders. */
    public static class OneShard extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(1, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new SingleDatabaseOrderReads(data, STATEMENT_DELAY);
        }
    }

    /** ShardingSphere-JDBC over all sixteen delayed shards. */
    public static class ShardingSphere extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(SHARDS, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new ShardingSphereOrderReads(data, STATEMENT_DELAY);
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
            return new AtomicShardsOrderReads(data, STATEMENT_DELAY, ShardAccess.PARALLEL);
        }
    }

    /** Atomic Shards' fan-out with the sequential access strategy (one shard after the other). */
    public static class AtomicShardsSequential extends ReadsState {
        @Override
        OrderDataSet data() {
            return new OrderDataSet(SHARDS, ORDERS_PER_SHARD);
        }

        @Override
        OrderReads create(OrderDataSet data) {
            return new AtomicShardsOrderReads(data, STATEMENT_DELAY, ShardAccess.SEQUENTIAL);
        }
    }

    @Benchmark
    public List<PurchaseOrder> atomicShardsParallel(AtomicShardsParallel state) {
        return state.reads.firstPlaced(LIMIT);
    }

    @Benchmark
    public List<PurchaseOrder> atomicShardsSequential(AtomicShardsSequential state) {
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
