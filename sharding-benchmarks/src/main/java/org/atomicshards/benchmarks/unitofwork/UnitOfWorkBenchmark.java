package org.atomicshards.benchmarks.unitofwork;

import java.util.concurrent.TimeUnit;

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
 * Units of work per second, one thread, each unit in its own session and transaction. Each side runs in its own
 * forked JVM; only the side a benchmark method names is set up.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class UnitOfWorkBenchmark {

    /** Holds a side and its request stream for one trial. */
    @State(Scope.Benchmark)
    public abstract static class SideState {
        UnitOfWorkSide side;
        OrderRequests requests;

        abstract UnitOfWorkSide createSide();

        @Setup(Level.Trial)
        public void setUp() {
            side = createSide();
            requests = new OrderRequests(UnitOfWorkSide.CUSTOMERS);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            side.close();
        }
    }

    public static class PlainHibernate extends SideState {
        @Override
        UnitOfWorkSide createSide() {
            return new PlainHibernateSide();
        }
    }

    public static class ShardingSphere extends SideState {
        @Override
        UnitOfWorkSide createSide() {
            return new ShardingSphereSide();
        }
    }

    public static class AtomicShards extends SideState {
        @Override
        UnitOfWorkSide createSide() {
            return new AtomicShardsSide();
        }
    }

    @Benchmark
    public int atomicShards(AtomicShards state) {
        return state.side.placeOrder(state.requests.next());
    }

    @Benchmark
    public int plainHibernate(PlainHibernate state) {
        return state.side.placeOrder(state.requests.next());
    }

    @Benchmark
    public int shardingSphere(ShardingSphere state) {
        return state.side.placeOrder(state.requests.next());
    }
}
