package org.atomicshards.benchmarks.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

/**
 * Loads benchmark data straight into the shard databases with JDBC (batched inserts for customers, one
 * {@code INSERT ... SELECT FROM SYSTEM_RANGE} per shard for orders, shards loaded in parallel), so loading
 * 8 x 200,000 rows takes seconds, not the minutes Hibernate's persist would.
 *
 * <p>Order ids and {@code placed_at} values are unique across all shards and interleave: order {@code x} of shard
 * {@code s} in a set of {@code n} gets {@code x * n + s}. Sorting by {@code placed_at} therefore takes rows from
 * every shard in turn, which is the work a k-way merge has to do.
 */
public final class DataLoader {

    private static final int BATCH = 1_000;

    private DataLoader() {
    }

    /** The customer keys on each shard, in ascending order. */
    public record PlacedKeys(List<List<Long>> keysByShard) {

        public PlacedKeys {
            keysByShard = keysByShard.stream().map(List::copyOf).toList();
        }

        public List<Long> keysOn(int shard) {
            return keysByShard.get(shard);
        }

        public long total() {
            return keysByShard.stream().mapToLong(List::size).sum();
        }
    }

    /**
     * Inserts customers {@code 1..count}, each on the shard {@code placement} names.
     *
     * @throws IllegalStateException if a shard would hold no customer (orders need one per shard)
     */
    public static PlacedKeys loadCustomers(ShardDatabases shards, long count, KeyPlacement placement) {
        List<List<Long>> keysByShard = new ArrayList<>();
        for (int i = 0; i < shards.count(); i++) {
            keysByShard.add(new ArrayList<>());
        }
        for (long key = 1; key <= count; key++) {
            int shard = placement.shardOf(key);
            if (shard < 0 || shard >= shards.count()) {
                throw new IllegalStateException("Placement put key " + key + " on shard " + shard + " of "
                        + shards.count());
            }
            keysByShard.get(shard).add(key);
        }
        for (int shard = 0; shard < shards.count(); shard++) {
            if (keysByShard.get(shard).isEmpty()) {
                throw new IllegalStateException("No customer key of 1.." + count + " lands on shard " + shard
                        + "; load more customers");
            }
            insertCustomers(shards.direct(shard), keysByShard.get(shard));
        }
        return new PlacedKeys(keysByShard);
    }

    private static void insertCustomers(DataSource dataSource, List<Long> keys) {
        String sql = "insert into customers (id, name, order_count, last_order_cents) values (?, ?, 0, 0)";
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(sql)) {
            int pending = 0;
            for (long key : keys) {
                insert.setLong(1, key);
                insert.setString(2, "customer-" + key);
                insert.addBatch();
                if (++pending == BATCH) {
                    insert.executeBatch();
                    pending = 0;
                }
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not load customers: " + e, e);
        }
    }

    /**
     * Inserts {@code ordersPerShard} orders on every shard, each belonging to one of that shard's customers (in
     * turn), so every row sits where its key routes.
     */
    public static void loadOrders(ShardDatabases shards, PlacedKeys customers, long ordersPerShard) {
        int threads = Math.min(shards.count(), Runtime.getRuntime().availableProcessors());
        ExecutorService loaders = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> loads = new ArrayList<>();
            for (int shard = 0; shard < shards.count(); shard++) {
                int index = shard;
                loads.add(loaders.submit(() -> loadOrders(shards.direct(index), shards.seriesFromZero(),
                        customers.keysOn(index), index, shards.count(), ordersPerShard)));
            }
            for (Future<?> load : loads) {
                load.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while loading orders", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not load orders: " + e.getCause(), e.getCause());
        } finally {
            loaders.shutdownNow();
        }
    }

    private static void loadOrders(DataSource dataSource, String series, List<Long> customerKeys, int shard,
                                   int shardCount, long ordersPerShard) {
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create table customer_slots (slot int primary key, customer_id bigint not null)");
            }
            try (PreparedStatement slot = connection.prepareStatement(
                    "insert into customer_slots (slot, customer_id) values (?, ?)")) {
                for (int i = 0; i < customerKeys.size(); i++) {
                    slot.setInt(1, i);
                    slot.setLong(2, customerKeys.get(i));
                    slot.addBatch();
                }
                slot.executeBatch();
            }
            try (PreparedStatement orders = connection.prepareStatement(
                    "insert into purchase_orders (id, customer_id, amount_cents, placed_at)"
                            + " select r.x * ? + ?, s.customer_id, mod(r.x * 7919, 100000), r.x * ? + ?"
                            + " from " + series + " join customer_slots s on s.slot = mod(r.x, ?)")) {
                orders.setLong(1, shardCount);
                orders.setLong(2, shard);
                orders.setLong(3, shardCount);
                orders.setLong(4, shard);
                orders.setLong(5, ordersPerShard - 1);
                orders.setLong(6, customerKeys.size());
                orders.executeUpdate();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("drop table customer_slots");
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not load orders on shard " + shard + ": " + e, e);
        }
    }
}
