package org.atomicshards.benchmarks.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongToIntFunction;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.PostgresShards;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveProgress;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitPlacement;

/**
 * Two PostgreSQL shard databases and a PostgreSQL catalog (see {@link PostgresShards}), an Atomic Shards factory over
 * them with the HASH policy on {@value #VIRTUAL_SHARDS} virtual shards, every virtual shard first on shard {@link #A} with
 * {@code units} customers of {@code ordersPerUnit} orders each; the moves take the upper half of those virtual shards
 * to {@link #B} and back with the default {@link MoveOptions}. {@link #close()} closes the factory and drops the
 * databases.
 */
final class MoveScenario implements AutoCloseable {

    /**
     * Fewer than the default 1,024 virtual shards, so that a batch of the default 4 holds about as many units as in
     * a deployment of some 300,000 units on 1,024: the figures are then those of copying, not of the fixed steps
     * every batch takes whatever it holds.
     */
    static final int VIRTUAL_SHARDS = 64;

    static final ShardId A = AtomicShardsFactories.shardId(0);
    static final ShardId B = AtomicShardsFactories.shardId(1);

    private final PostgresShards shards;
    private final PostgresShards catalog;
    private final ShardedSessionFactory factory;
    private final Set<Integer> moving;
    private final long units;
    private final long orders;
    private ShardId movingOn = A;

    private MoveScenario(PostgresShards shards, PostgresShards catalog, ShardedSessionFactory factory,
                         Set<Integer> moving, long units, long orders) {
        this.shards = shards;
        this.catalog = catalog;
        this.factory = factory;
        this.moving = Set.copyOf(moving);
        this.units = units;
        this.orders = orders;
    }

    /**
     * @param poolSize each shard's pool: the writer threads plus the mover's connections
     */
    static MoveScenario create(long units, int ordersPerUnit, int poolSize) {
        if (units < 1 || ordersPerUnit < 0) {
            throw new IllegalArgumentException("Need at least one unit and no negative order count, were " + units
                    + " units of " + ordersPerUnit + " orders");
        }
        PostgresShards shards = PostgresShards.create("move", 2, 1, true);
        PostgresShards catalog = null;
        ShardedSessionFactory factory = null;
        try {
            catalog = PostgresShards.createEmpty("move_catalog", 1, 1);
            factory = AtomicShardsFactories.configure(shards, Policies.hash())
                    .catalog(catalog.delayedUrl(0), catalog.user(), catalog.password())
                    .virtualShards(VIRTUAL_SHARDS)
                    .poolSize(poolSize)
                    .build();
            // one empty batch: every virtual shard on A before any row is loaded
            factory.admin().merge(B, A, MoveOptions.defaults()
                    .virtualShardsPerBatch(factory.directory().virtualShards()));
            long orders = units * ordersPerUnit;
            load(shards, units, orders);
            List<Integer> onA = factory.directory().virtualShardsOf(A);
            Set<Integer> upperHalf = new TreeSet<>(onA.subList(onA.size() / 2, onA.size()));
            return new MoveScenario(shards, catalog, factory, upperHalf, units, orders);
        } catch (RuntimeException e) {
            if (factory != null) {
                factory.close();
            }
            if (catalog != null) {
                catalog.close();
            }
            shards.close();
            throw e;
        }
    }

    private static void load(PostgresShards shards, long units, long orders) {
        try (Connection connection = shards.direct(0).getConnection()) {
            try (PreparedStatement customers = connection.prepareStatement(
                    "insert into customers (id, name, order_count, last_order_cents)"
                            + " select x, 'customer-' || x, 0, 0 from generate_series(1, ?) x")) {
                customers.setLong(1, units);
                customers.executeUpdate();
            }
            try (PreparedStatement purchases = connection.prepareStatement(
                    "insert into purchase_orders (id, customer_id, amount_cents, placed_at)"
                            + " select x, 1 + mod(x, ?), mod(x * 7919, 100000), x from generate_series(0, ?) x")) {
                purchases.setLong(1, units);
                purchases.setLong(2, orders - 1);
                purchases.executeUpdate();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("analyze");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not load the move benchmark's data: " + e, e);
        }
    }

    ShardedSessionFactory factory() {
        return factory;
    }

    long units() {
        return units;
    }

    /** The virtual shards every move takes: the upper half of those shard {@link #A} owned after loading. */
    Set<Integer> moving() {
        return moving;
    }

    /** Where {@link #moving()} are now. */
    ShardId movingOn() {
        return movingOn;
    }

    /** Where the next move takes them: the other shard. */
    ShardId nextTarget() {
        return movingOn.equals(A) ? B : A;
    }

    /**
     * Moves {@link #moving()} to the other shard with the default options.
     *
     * @param listener progress listener, or null
     */
    MoveReport moveOver(MoveProgress.Listener listener) {
        ShardId target = nextTarget();
        MoveReport report = factory.admin().move(moving, target, MoveOptions.defaults().listener(listener));
        movingOn = target;
        return report;
    }

    /** The virtual shard of a customer key, by the factory's own placement (not public API: benchmark use only). */
    LongToIntFunction virtualShardOf() {
        UnitPlacement placement = ((ShardRouterImpl) factory.router()).unitOf(Customer.class).placement();
        return key -> placement.virtualShardOf(key);
    }

    /**
     * Checks that nothing was lost or duplicated: every customer on exactly one of the two databases, and as many
     * orders as were loaded plus {@code ordersWritten}.
     *
     * @throws IllegalStateException naming what differs
     */
    void checkIntact(long ordersWritten) {
        long customers = count("select count(*) from customers");
        long distinct = countDistinctCustomers();
        long purchases = count("select count(*) from purchase_orders");
        if (customers != units || distinct != units || purchases != orders + ordersWritten) {
            throw new IllegalStateException("After the moves the shards hold " + customers + " customer rows ("
                    + distinct + " distinct) and " + purchases + " orders; expected " + units + " and "
                    + (orders + ordersWritten) + " (" + orders + " loaded, " + ordersWritten + " written)");
        }
    }

    private long count(String sql) {
        long total = 0;
        for (int i = 0; i < shards.count(); i++) {
            try (Connection connection = shards.direct(i).getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(sql)) {
                rows.next();
                total += rows.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException("Could not count rows on shard " + i + ": " + e, e);
            }
        }
        return total;
    }

    private long countDistinctCustomers() {
        Set<Long> ids = new java.util.HashSet<>();
        for (int i = 0; i < shards.count(); i++) {
            try (Connection connection = shards.direct(i).getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select id from customers")) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Could not read customers on shard " + i + ": " + e, e);
            }
        }
        return ids.size();
    }

    @Override
    public void close() {
        try {
            factory.close();
        } finally {
            try {
                catalog.close();
            } finally {
                shards.close();
            }
        }
    }
}
