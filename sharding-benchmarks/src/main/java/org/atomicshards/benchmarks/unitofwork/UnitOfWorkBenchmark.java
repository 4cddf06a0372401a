package org.atomicshards.benchmarks.unitofwork;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.benchmarks.support.Backend;

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
 * Units of work per second, each unit in its own session and transaction. Each side runs in its own forked JVM; only
 * the side a benchmark method names is set up. One thread unless JMH is told otherwise ({@code -t 8}: the suite's
 * {@code -8-threads} groups), each thread with its own request stream; the databases are in-memory H2 unless the
 * {@code backend} parameter says {@code POSTGRESQL} (the suite's {@code pg-} groups).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class UnitOfWorkBenchmark {

    /** Holds a side for one trial, shared by the benchmark's threads. */
    @State(Scope.Benchmark)
    public abstract static class SideState {
        /** Where the side's databases live. */
        @Param({"H2"})
        public Backend backend;

        UnitOfWorkSide side;

        abstract UnitOfWorkSide createSide(Backend backend);

        @Setup(Level.Trial)
        public void setUp() {
            side = createSide(backend);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            side.close();
        }
    }

    public static class PlainHibernate extends SideState {
        @Override
        UnitOfWorkSide createSide(Backend backend) {
            return new PlainHibernateSide(backend);
        }
    }

    public static class ShardingSphere extends SideState {
        @Override
        UnitOfWorkSide createSide(Backend backend) {
            return new ShardingSphereSide(backend);
        }
    }

    public static class AtomicShards extends SideState {
        @Override
        UnitOfWorkSide createSide(Backend backend) {
            return new AtomicShardsSide(backend);
        }
    }

    /** Atomic Shards with its Micrometer meters recorded (units of work, guards, hot-spot traffic). */
    public static class AtomicShardsWithMetrics extends SideState {
        @Override
        UnitOfWorkSide createSide(Backend backend) {
            return new AtomicShardsSide(backend, builder -> builder.meterRegistry(new SimpleMeterRegistry()));
        }
    }

    /** One benchmark thread's request stream: its own customers' sequence and its own range of new order ids. */
    @State(Scope.Thread)
    public static class Requests {
        private static final AtomicInteger THREADS = new AtomicInteger();
        OrderRequests requests;

        @Setup(Level.Trial)
        public void setUp() {
            requests = OrderRequests.forThread(UnitOfWorkSide.CUSTOMERS, THREADS.getAndIncrement());
        }
    }

    @Benchmark
    public int atomicShards(AtomicShards state, Requests requests) {
        return state.side.placeOrder(requests.requests.next());
    }

    @Benchmark
    public int atomicShardsWithMetrics(AtomicShardsWithMetrics state, Requests requests) {
        return state.side.placeOrder(requests.requests.next());
    }

    @Benchmark
    public int plainHibernate(PlainHibernate state, Requests requests) {
        return state.side.placeOrder(requests.requests.next());
    }

    @Benchmark
    public int shardingSphere(ShardingSphere state, Requests requests) {
        return state.side.placeOrder(requests.requests.next());
    }
}
