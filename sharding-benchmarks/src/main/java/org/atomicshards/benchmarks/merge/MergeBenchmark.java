package org.atomicshards.benchmarks.merge;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.AtomicShardsOrderReads;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.reads.OrderReads;
import org.atomicshards.benchmarks.reads.ShardingSphereOrderReads;
import org.atomicshards.benchmarks.reads.StreamDigest;
import org.atomicshards.hibernate.ShardAccess;
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
 * Merging across {@value #SHARDS} shards of {@code rowsPerShard} orders each: {@code order by placedAt} with
 * {@value #LIMIT} results, and the same ordering streamed to the end. Run with JMH's GC profiler
 * ({@code -prof gc}): {@code gc.alloc.rate.norm} is the allocation per operation, which for the limited query must
 * not grow with the row count and for the stream must not grow faster than the rows.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MergeBenchmark {

    public static final int SHARDS = 8;
    public static final int LIMIT = 100;
    /** The two row counts per shard; the memory targets compare the larger with the smaller. */
    public static final String FEWER_ROWS = "20000";
    public static final String MORE_ROWS = "200000";

    /**
     * Holds one side's reads over a freshly loaded data set; checks the limited answer once before measuring (the
     * streamed answer is checked on every operation, which costs one record comparison).
     */
    @State(Scope.Benchmark)
    public abstract static class ReadsState {

        @Param({FEWER_ROWS, MORE_ROWS})
        public long rowsPerShard;

        OrderReads reads;
        OrderDataSet data;

        abstract OrderReads create(OrderDataSet data);

        @Setup(Level.Trial)
        public void setUp() {
            data = new OrderDataSet(SHARDS, rowsPerShard);
            reads = create(data);
            data.checkFirstPlaced(reads.firstPlaced(LIMIT), LIMIT);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            reads.close();
        }
    }

    public static class AtomicShards extends ReadsState {
        @Override
        OrderReads create(OrderDataSet data) {
            return new AtomicShardsOrderReads(data, Duration.ZERO, ShardAccess.PARALLEL);
        }
    }

    public static class ShardingSphere extends ReadsState {
        @Override
        OrderReads create(OrderDataSet data) {
            return new ShardingSphereOrderReads(data, Duration.ZERO);
        }
    }

    @Benchmark
    public List<PurchaseOrder> firstHundredAtomicShards(AtomicShards state) {
        return state.reads.firstPlaced(LIMIT);
    }

    @Benchmark
    public StreamDigest streamAtomicShards(AtomicShards state) {
        return stream(state);
    }

    @Benchmark
    public List<PurchaseOrder> firstHundredShardingSphere(ShardingSphere state) {
        return state.reads.firstPlaced(LIMIT);
    }

    @Benchmark
    public StreamDigest streamShardingSphere(ShardingSphere state) {
        return stream(state);
    }

    private static StreamDigest stream(ReadsState state) {
        StreamDigest digest = state.reads.streamAllByPlacedAt(rows -> { });
        state.data.checkStream(digest);
        return digest;
    }
}
