package org.atomicshards.benchmarks.scale;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
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
 *
 * <p>{@link #jdbcCountEach} is the same databases' own share, with no library: the count's SQL on each database in turn
 * over plain JDBC. In-memory databases share the benchmark's JVM and CPU caches, so each statement of theirs costs
 * more as their number grows; the fan-outs' growth is read against this one's.
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
    /** The count's statement on each database, each on a connection of its own, open for the trial. */
    private final List<PreparedStatement> counts = new ArrayList<>();

    /** Builds the shards and the factory and checks both queries; what it opened is closed again if it fails. */
    @Setup(Level.Trial)
    public void setUp() throws SQLException {
        try {
            prepare();
        } catch (RuntimeException | SQLException e) {
            try {
                tearDown();
            } catch (RuntimeException | SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private void prepare() throws SQLException {
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
        for (int i = 0; i < shards; i++) {
            Connection connection = databases.direct(i).getConnection();
            try {
                counts.add(connection.prepareStatement("select count(*) from purchase_orders"));
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
        }
        if (jdbcCountEach() != data.totalOrders()) {
            throw new IllegalStateException("Wrong JDBC count: expected " + data.totalOrders() + ", got "
                    + jdbcCountEach());
        }
    }

    /** Closes what {@link #setUp} opened, as far as it got. */
    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        for (PreparedStatement count : counts) {
            count.getConnection().close();
        }
        counts.clear();
        if (factory != null) {
            factory.close();
        }
        if (databases != null) {
            databases.close();
        }
    }

    @Benchmark
    public long countAll() {
        return queries.createQuery(COUNT, Long.class).getSingleResult();
    }

    /** {@link #COUNT}'s SQL on each database in turn, over one open JDBC connection per database. */
    @Benchmark
    public long jdbcCountEach() throws SQLException {
        long total = 0;
        for (PreparedStatement count : counts) {
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                total += rows.getLong(1);
            }
        }
        return total;
    }

    @Benchmark
    public List<PurchaseOrder> firstTwenty() {
        return queries.createQuery(BY_PLACED_AT, PurchaseOrder.class).setMaxResults(LIMIT).getResultList();
    }
}
