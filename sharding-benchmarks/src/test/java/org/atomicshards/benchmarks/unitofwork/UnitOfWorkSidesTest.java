package org.atomicshards.benchmarks.unitofwork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import javax.sql.DataSource;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.atomicshards.benchmarks.support.HibernateFactories;
import org.atomicshards.benchmarks.support.KeyPlacement;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Each side really does the unit of work, and the sharded sides do it on the shard that owns the key; on in-memory
 * H2 here, on PostgreSQL in {@link PostgresUnitOfWorkSidesIT}.
 */
class UnitOfWorkSidesTest {

    /** Where the sides' databases live. */
    Backend backend() {
        return Backend.H2;
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class PlainHibernate {

        private PlainHibernateSide side;

        @BeforeAll
        void start() {
            side = new PlainHibernateSide(backend());
        }

        @AfterAll
        void stop() {
            side.close();
        }

        @Test
        void persistsTheOrderAndUpdatesTheCustomer() throws SQLException {
            assertThat(side.placeOrder(new OrderRequest(42, 7001, 250))).isEqualTo(1);
            assertThat(side.placeOrder(new OrderRequest(42, 7002, 300))).isEqualTo(2);

            DataSource database = side.database().direct(0);
            assertThat(customerOrderCount(database, 42)).isEqualTo(2);
            assertThat(ordersOf(database, 42)).isEqualTo(2);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class PlainHibernateMultiTenant {

        private PlainMultiTenantSide side;

        @BeforeAll
        void start() {
            side = new PlainMultiTenantSide(backend());
        }

        @AfterAll
        void stop() {
            side.close();
        }

        @Test
        void refusesASessionOfAnotherTenant() {
            try (SessionFactory factory = HibernateFactories.buildMultiTenant(side.database().pool(0), "only");
                 Session session = factory.withOptions().tenantIdentifier("another").openSession()) {
                assertThatThrownBy(() -> session.find(Customer.class, 42L))
                        .hasStackTraceContaining("Unknown tenant 'another'; the only one is 'only'");
            }
        }

        @Test
        void persistsTheOrderAndUpdatesTheCustomerThroughItsOneTenant() throws SQLException {
            assertThat(side.placeOrder(new OrderRequest(42, 7101, 250))).isEqualTo(1);
            assertThat(side.placeOrder(new OrderRequest(42, 7102, 300))).isEqualTo(2);

            DataSource database = side.database().direct(0);
            assertThat(customerOrderCount(database, 42)).isEqualTo(2);
            assertThat(ordersOf(database, 42)).isEqualTo(2);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class PlainHibernateBesideAnIdleLibrary {

        private PlainBesideLibrarySide side;

        @BeforeAll
        void start() {
            side = new PlainBesideLibrarySide(backend());
        }

        @AfterAll
        void stop() {
            side.close();
        }

        @Test
        void writesThroughPlainHibernateOnlyAndLeavesTheLibrarysShardsUntouched() throws SQLException {
            assertThat(side.placeOrder(new OrderRequest(42, 7201, 250))).isEqualTo(1);
            assertThat(side.placeOrder(new OrderRequest(42, 7202, 300))).isEqualTo(2);

            assertThat(ordersOf(side.plain().database().direct(0), 42)).isEqualTo(2);
            ShardDatabases shards = side.idleLibrary().shards();
            for (int shard = 0; shard < shards.count(); shard++) {
                assertThat(ordersOf(shards.direct(shard), 42)).as("orders on shard %d", shard).isZero();
            }
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class ShardingSphere {

        private ShardingSphereSide side;

        @BeforeAll
        void start() {
            side = new ShardingSphereSide(backend());
        }

        @AfterAll
        void stop() {
            side.close();
        }

        @Test
        void writesEveryRowOfTheUnitOnlyOnTheShardOfItsKey() throws SQLException {
            long key = 4 * 100 + 3;
            assertThat(side.placeOrder(new OrderRequest(key, 8001, 250))).isEqualTo(1);

            ShardDatabases shards = side.shards();
            for (int shard = 0; shard < shards.count(); shard++) {
                int expected = shard == 3 ? 1 : 0;
                assertThat(ordersOf(shards.direct(shard), key)).as("orders on shard %d", shard).isEqualTo(expected);
            }
            assertThat(customerOrderCount(shards.direct(3), key)).isEqualTo(1);
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class AtomicShards {

        private AtomicShardsSide side;

        @BeforeAll
        void start() {
            side = new AtomicShardsSide(backend());
        }

        @AfterAll
        void stop() {
            side.close();
        }

        @Test
        void writesEveryRowOfTheUnitOnlyOnTheShardItsKeyRoutesTo() throws SQLException {
            long key = 1234;
            int owner = AtomicShardsFactories.placement(side.factory()).shardOf(key);
            assertThat(side.placeOrder(new OrderRequest(key, 9001, 250))).isEqualTo(1);
            assertThat(side.placeOrder(new OrderRequest(key, 9002, 260))).isEqualTo(2);

            ShardDatabases shards = side.shards();
            for (int shard = 0; shard < shards.count(); shard++) {
                int expected = shard == owner ? 2 : 0;
                assertThat(ordersOf(shards.direct(shard), key)).as("orders on shard %d", shard).isEqualTo(expected);
            }
            assertThat(customerOrderCount(shards.direct(owner), key)).isEqualTo(2);
        }

        @Test
        void spreadsTheCustomersOverEveryShard() {
            KeyPlacement placement = AtomicShardsFactories.placement(side.factory());
            Map<Integer, Long> perShard = LongStream.rangeClosed(1, UnitOfWorkSide.CUSTOMERS).boxed()
                    .collect(Collectors.groupingBy(placement::shardOf, Collectors.counting()));
            assertThat(perShard).hasSize(UnitOfWorkSide.SHARDS)
                    .allSatisfy((shard, count) -> assertThat(count).isGreaterThan(2_000L));
        }

        @Test
        void keepsNoPoolOfTheBenchmarksBesideTheLibrarysOwn() {
            ShardDatabases shards = side.shards();
            for (int shard = 0; shard < shards.count(); shard++) {
                int index = shard;
                assertThatThrownBy(() -> shards.pool(index)).isInstanceOf(IllegalStateException.class)
                        .hasMessage("This shard set was created without pools");
            }
            assertThat(shards.pools()).isEmpty();
        }
    }

    private static long customerOrderCount(DataSource database, long key) throws SQLException {
        return single(database, "select order_count from customers where id = ?", key);
    }

    private static long ordersOf(DataSource database, long key) throws SQLException {
        return single(database, "select count(*) from purchase_orders where customer_id = ?", key);
    }

    private static long single(DataSource database, String sql, long key) throws SQLException {
        try (Connection connection = database.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, key);
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                return rows.getLong(1);
            }
        }
    }
}
