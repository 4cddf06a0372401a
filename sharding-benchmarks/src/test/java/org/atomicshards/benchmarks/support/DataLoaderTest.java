package org.atomicshards.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DataLoaderTest {

    @ParameterizedTest(name = "{0} shards x {1} orders")
    @CsvSource({"1, 50", "3, 40", "8, 25"})
    void placesEveryRowWhereItsKeyRoutesWithUniqueInterleavedOrderValues(int shardCount, long ordersPerShard)
            throws SQLException {
        try (H2Shards shards = H2Shards.create("loader", shardCount, H2Mode.NATIVE, false, Duration.ZERO)) {
            KeyPlacement placement = KeyPlacement.modulo(shardCount);
            DataLoader.PlacedKeys keys = DataLoader.loadCustomers(shards, 10L * shardCount, placement);
            DataLoader.loadOrders(shards, keys, ordersPerShard);

            assertThat(keys.total()).isEqualTo(10L * shardCount);
            long placedAtSum = 0;
            for (int shard = 0; shard < shardCount; shard++) {
                DataSource database = shards.direct(shard);
                assertThat(count(database, "select count(*) from customers")).isEqualTo(10);
                assertThat(count(database, "select count(*) from purchase_orders")).isEqualTo(ordersPerShard);
                assertThat(count(database, "select count(*) from customers where mod(id, " + shardCount + ") <> "
                        + shard)).as("customers of another shard on shard %d", shard).isZero();
                assertThat(count(database, "select count(*) from purchase_orders o where not exists"
                        + " (select 1 from customers c where c.id = o.customer_id)"))
                        .as("orders whose customer is on another shard").isZero();
                assertThat(count(database, "select count(*) from purchase_orders where mod(placed_at, "
                        + shardCount + ") <> " + shard)).isZero();
                placedAtSum += count(database, "select sum(placed_at) from purchase_orders");
            }
            long total = shardCount * ordersPerShard;
            assertThat(placedAtSum).as("placed_at takes each of 0..%d once", total - 1)
                    .isEqualTo(total * (total - 1) / 2);
        }
    }

    @Test
    void refusesAPlacementThatLeavesAShardWithoutCustomers() {
        try (H2Shards shards = H2Shards.create("loader_empty", 2, H2Mode.NATIVE, false, Duration.ZERO)) {
            assertThatThrownBy(() -> DataLoader.loadCustomers(shards, 10, KeyPlacement.single()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("No customer key of 1..10 lands on shard 1");
        }
    }

    @Test
    void refusesAPlacementOutsideTheShardSet() {
        try (H2Shards shards = H2Shards.create("loader_outside", 2, H2Mode.NATIVE, false, Duration.ZERO)) {
            assertThatThrownBy(() -> DataLoader.loadCustomers(shards, 10, key -> 2))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("on shard 2 of 2");
        }
    }

    private static long count(DataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
