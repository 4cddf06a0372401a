package org.atomicshards.benchmarks.routing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.spi.UnitRouting;
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
 * Routing throughput: key to physical shard per second through the read-only routing SPI
 * ({@link UnitRouting#shardsForKey}) that the fan-out engine and integrations use, for each selection policy on
 * {@value #SHARDS} shards and 1024 virtual shards. LOOKUP keys are placed in the shard directory first and then
 * answered from its in-memory cache.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RoutingThroughputBenchmark {

    public static final int SHARDS = 4;
    /** Keys routed in turn (a power of two), in a shuffled order so that no policy sees them sorted. */
    public static final int KEYS = 4096;
    /** Keys per range under the RANGE policy: 64 ranges over the keys, spread over the virtual shards. */
    private static final int RANGE_WIDTH = 64;

    /** A factory with one policy and the keys to route. */
    @State(Scope.Benchmark)
    public static class Router {

        @Param({"HASH", "RANGE", "CONSISTENT_HASH", "LOOKUP"})
        public String policy;

        private H2Shards shards;
        private ShardedSessionFactory factory;
        UnitRouting routing;
        Long[] keys;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            shards = H2Shards.create("routing", SHARDS, H2Mode.NATIVE, false, Duration.ZERO);
            factory = AtomicShardsFactories.build(shards, policy(policy), UnaryOperator.identity());
            List<Long> shuffled = new ArrayList<>();
            for (long key = 1; key <= KEYS; key++) {
                shuffled.add(key);
            }
            Collections.shuffle(shuffled, new Random(6));
            keys = shuffled.toArray(Long[]::new);
            if (policy.equals("LOOKUP")) {
                for (Long key : keys) {
                    factory.place(Customer.class, key, AtomicShardsFactories.shardId((int) (key % SHARDS)));
                }
            }
            routing = factory.router().routingOf(Customer.class).orElseThrow(
                    () -> new IllegalStateException("No routing for " + Customer.class.getName()));
            for (Long key : keys) {
                Set<ShardId> owners = routing.shardsForKey(key);
                if (owners.size() != 1) {
                    throw new IllegalStateException(policy + " routed key " + key + " to " + owners
                            + ", expected exactly one shard");
                }
            }
        }

        Long nextKey() {
            return keys[next++ & (KEYS - 1)];
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            factory.close();
            shards.close();
        }

        private static Policy policy(String name) {
            return switch (name) {
                case "HASH" -> Policies.hash();
                case "CONSISTENT_HASH" -> Policies.consistentHash();
                case "LOOKUP" -> Policies.lookup();
                case "RANGE" -> {
                    List<KeyRange> ranges = new ArrayList<>();
                    for (int i = 0; i < KEYS / RANGE_WIDTH; i++) {
                        ranges.add(KeyRange.of(1L + (long) i * RANGE_WIDTH, (long) (i + 1) * RANGE_WIDTH, i * 16));
                    }
                    yield Policies.range(ranges);
                }
                default -> throw new IllegalArgumentException("Unknown policy '" + name
                        + "'; use HASH, RANGE, CONSISTENT_HASH or LOOKUP");
            };
        }
    }

    @Benchmark
    public Set<ShardId> route(Router router) {
        return router.routing.shardsForKey(router.nextKey());
    }
}
