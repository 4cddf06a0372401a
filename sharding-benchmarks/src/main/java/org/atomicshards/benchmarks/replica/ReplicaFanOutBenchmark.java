package org.atomicshards.benchmarks.replica;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.PostgresShards;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.ShardingSettings;
import org.hibernate.Session;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reads from replicas on PostgreSQL: {@value #SHARDS} databases of {@value #ORDERS_PER_SHARD} orders on the local
 * server (see {@link PostgresShards}), each with one replica, the same database on a streaming standby of that server
 * ({@code benchmarks.pg.replica.host}, default the primary's host; {@code benchmarks.pg.replica.port}, default
 * {@value #DEFAULT_REPLICA_PORT}). Side by side, in one run:
 * <ul>
 *   <li>fan-out throughput (the suite runs it on one thread and on {@value #THREADS}): a page ({@code order by
 *       placedAt}, first {@value #LIMIT}) and a {@code count} per operation, on the primaries, and with
 *       {@code setReadFromReplicas(true)} on the replicas. On one machine the standby shares the primary's CPUs and
 *       disk: the ratio shows what routing to a replica costs, not what a replica on its own hardware would add;</li>
 *   <li>the lag check's cost per read: a read-only session on one shard, opened and asked one simple query, on the
 *       primary and, with {@link ShardingSettings#REPLICA_READS}, on its replica (one lag-check statement on the
 *       replica connection before the query).</li>
 * </ul>
 * Every trial checks that the replicas answered (the factory's {@code atomicshards.replica.reads} meter) and prints
 * the reads and skips per replica at its end, so that a replica skipped for lag (the primary then answers) shows.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReplicaFanOutBenchmark {

    public static final int SHARDS = 2;
    public static final long ORDERS_PER_SHARD = 2_000;
    public static final int LIMIT = 20;
    public static final int THREADS = 8;
    /** Connections per shard and per replica: one per benchmark thread of the 8-thread group. */
    public static final int POOL_SIZE = THREADS;
    public static final int DEFAULT_REPLICA_PORT = 5433;
    /** How long a trial waits for the standby to hold the loaded rows. */
    private static final long CATCH_UP_MILLIS = 60_000;
    private static final String BY_PLACED_AT = "select o from PurchaseOrder o order by o.placedAt";
    private static final String COUNT = "select count(o) from PurchaseOrder o";
    private static final String SIMPLE = "select max(o.placedAt) from PurchaseOrder o";
    private static final String REPLICA_READ_METER = "atomicshards.replica.reads";
    private static final String REPLICA_SKIP_METER = "atomicshards.replica.skipped";

    /**
     * Two PostgreSQL shards with one replica each, loaded, the replicas caught up; a factory with the replicas named
     * (fan-outs read from them only where asked). Read-only work reads from the primaries.
     */
    @State(Scope.Benchmark)
    public static class Replicated {
        final OrderDataSet data = new OrderDataSet(SHARDS, ORDERS_PER_SHARD);
        PostgresShards shards;
        ShardedSessionFactory factory;
        SimpleMeterRegistry meters;

        boolean readOnlyWorkOnReplicas() {
            return false;
        }

        @Setup(Level.Trial)
        public void setUp() {
            shards = PostgresShards.createUnpooled("replica", SHARDS);
            try {
                start();
            } catch (RuntimeException e) {
                // JMH runs no tear-down after a failed set-up: drop the databases here
                if (factory != null) {
                    factory.close();
                }
                shards.close();
                throw e;
            }
        }

        private void start() {
            meters = new SimpleMeterRegistry();
            Map<String, Object> properties = new TreeMap<>();
            for (int i = 0; i < SHARDS; i++) {
                properties.put(ShardingSettings.SHARD_PREFIX + AtomicShardsFactories.shardId(i).name()
                        + ShardingSettings.REPLICA_INFIX + "r1.url", replicaUrl(shards.delayedUrl(i)));
            }
            properties.put(ShardingSettings.REPLICA_READS, readOnlyWorkOnReplicas());
            ShardedSessionFactoryBuilder builder = AtomicShardsFactories.configure(shards, Policies.hash())
                    .poolSize(POOL_SIZE)
                    .maxTotalConnections(4 * POOL_SIZE * SHARDS)
                    .fanOut(FanOutSettings.builder().access(ShardAccess.PARALLEL).parallelism(THREADS * SHARDS)
                            .build())
                    .meterRegistry(meters);
            properties.forEach(builder::property);
            factory = builder.build();
            DataLoader.loadOrders(shards,
                    DataLoader.loadCustomers(shards, data.customers(), AtomicShardsFactories.placement(factory)),
                    data.ordersPerShard());
            firstPlaced(this, false); // creates the ownership fence's tables on the primaries
            awaitReplay();
            check();
        }

        /** Waits until every replica has replayed the primary server's WAL as of now: the loaded rows, the tables. */
        private void awaitReplay() {
            String target;
            try (Connection primary = shards.direct(0).getConnection();
                 Statement statement = primary.createStatement();
                 ResultSet lsn = statement.executeQuery("select pg_current_wal_lsn()::text")) {
                lsn.next();
                target = lsn.getString(1);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not read the primary's WAL position", e);
            }
            long deadline = System.currentTimeMillis() + CATCH_UP_MILLIS;
            for (int i = 0; i < SHARDS; i++) {
                String url = replicaUrl(shards.delayedUrl(i));
                while (true) {
                    try (Connection connection = java.sql.DriverManager.getConnection(url, shards.user(),
                            shards.password());
                         Statement statement = connection.createStatement();
                         ResultSet replayed = statement.executeQuery(
                                 "select pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn")) {
                        replayed.next();
                        if (replayed.getBoolean(1)) {
                            break;
                        }
                    } catch (SQLException notYet) {
                        // asked again below
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("The replica " + url + " did not replay " + target
                                + " within " + CATCH_UP_MILLIS + " ms");
                    }
                    sleep();
                }
            }
        }

        /** Checks both sides' answers, and that a fan-out asked to read from the replicas read from them. */
        private void check() {
            double before = meterSum(REPLICA_READ_METER);
            List<PurchaseOrder> page = firstPlaced(this, true);
            data.checkFirstPlaced(page, LIMIT);
            data.checkFirstPlaced(firstPlaced(this, false), LIMIT);
            long total = count(this, true);
            if (total != data.totalOrders() || count(this, false) != data.totalOrders()) {
                throw new IllegalStateException("Wrong count: " + total + ", expected " + data.totalOrders());
            }
            long deadline = System.currentTimeMillis() + CATCH_UP_MILLIS;
            while (meterSum(REPLICA_READ_METER) - before < 2 * SHARDS) {
                // a replica skipped for lag (the primary answered): ask again until both reads used the replicas
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("The fan-outs did not read from the replicas: " + report());
                }
                sleep();
                before = meterSum(REPLICA_READ_METER);
                firstPlaced(this, true);
                count(this, true);
            }
            double beforeSession = meterSum(REPLICA_READ_METER);
            Long max = simpleRead(this);
            if (max == null || max < 0 || max >= data.totalOrders()) {
                throw new IllegalStateException("Wrong max(placedAt) on shard 0: " + max);
            }
            boolean onReplica = meterSum(REPLICA_READ_METER) > beforeSession;
            if (onReplica != readOnlyWorkOnReplicas()) {
                throw new IllegalStateException("A read-only session read from the "
                        + (onReplica ? "replica" : "primary") + ", expected the other: " + report());
            }
        }

        double meterSum(String meter) {
            return meters.find(meter).counters().stream().mapToDouble(Counter::count).sum();
        }

        String report() {
            StringBuilder text = new StringBuilder();
            for (String meter : List.of(REPLICA_READ_METER, REPLICA_SKIP_METER)) {
                meters.find(meter).counters().forEach(counter -> text.append(meter).append(counter.getId().getTags())
                        .append('=').append((long) counter.count()).append("; "));
            }
            return text.length() == 0 ? "no replica reads or skips" : text.toString();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            System.out.println("Replica meters (" + getClass().getSimpleName() + "): " + report());
            try {
                factory.close();
            } finally {
                shards.close();
            }
        }
    }

    /** As {@link Replicated}, with read-only sessions on the replicas ({@link ShardingSettings#REPLICA_READS}). */
    public static class ReadOnlyWorkOnReplicas extends Replicated {
        @Override
        boolean readOnlyWorkOnReplicas() {
            return true;
        }
    }

    static String replicaUrl(String primaryUrl) {
        String host = System.getProperty("benchmarks.pg.host", PostgresShards.DEFAULT_HOST);
        int port = Integer.getInteger("benchmarks.pg.port", PostgresShards.DEFAULT_PORT);
        String prefix = "jdbc:postgresql://" + host + ":" + port + "/";
        if (!primaryUrl.startsWith(prefix)) {
            throw new IllegalStateException("Unexpected shard URL " + primaryUrl);
        }
        return "jdbc:postgresql://" + System.getProperty("benchmarks.pg.replica.host", host) + ":"
                + Integer.getInteger("benchmarks.pg.replica.port", DEFAULT_REPLICA_PORT) + "/"
                + primaryUrl.substring(prefix.length());
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static List<PurchaseOrder> firstPlaced(Replicated state, boolean fromReplicas) {
        return state.factory.fanOut().createQuery(BY_PLACED_AT, PurchaseOrder.class)
                .setReadFromReplicas(fromReplicas)
                .setMaxResults(LIMIT)
                .getResultList();
    }

    static long count(Replicated state, boolean fromReplicas) {
        return state.factory.fanOut().createQuery(COUNT, Long.class)
                .setReadFromReplicas(fromReplicas)
                .getSingleResult();
    }

    private static void pageAndCount(Replicated state, boolean fromReplicas, Blackhole blackhole) {
        blackhole.consume(firstPlaced(state, fromReplicas));
        blackhole.consume(count(state, fromReplicas));
    }

    private static Long simpleRead(Replicated state) {
        ShardId shard = AtomicShardsFactories.shardId(0);
        try (Session session = state.factory.openReadOnlySession(shard)) {
            // in a transaction, rolled back, as readInUnit does: outside one, Hibernate resets the read-only hint
            // on a connection still in its implicit transaction, and PostgreSQL's driver refuses (a logged warning)
            session.beginTransaction();
            try {
                return session.createSelectionQuery(SIMPLE, Long.class).getSingleResult();
            } finally {
                session.getTransaction().rollback();
            }
        }
    }

    /** A page and a count, from the primaries. */
    @Benchmark
    public void fanOutPrimaries(Replicated state, Blackhole blackhole) {
        pageAndCount(state, false, blackhole);
    }

    /** The same from the replicas, one per shard: a lag check on each replica connection before its reads. */
    @Benchmark
    public void fanOutReplicas(Replicated state, Blackhole blackhole) {
        pageAndCount(state, true, blackhole);
    }

    /** A read-only session on one shard's primary, opened and asked one simple query. */
    @Benchmark
    public Long sessionReadPrimary(Replicated state) {
        return simpleRead(state);
    }

    /** The same on the shard's replica: the lag check runs on the connection before the query. */
    @Benchmark
    public Long sessionReadReplica(ReadOnlyWorkOnReplicas state) {
        return simpleRead(state);
    }
}
