package org.atomicshards.hibernate.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariPoolMXBean;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.SettingsReader;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which H2 URLs name a database that closes with its last connection, and that a shard's pool keeps it alive. */
class InMemoryDatabaseKeeperTest {

    private static final ShardId S0 = ShardId.of("s0");

    private final String url = "jdbc:h2:mem:keeper-" + UUID.randomUUID();

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "jdbc:h2:mem:shop_0                                  | true",
            "jdbc:h2:mem:shop_0;MODE=PostgreSQL                  | true",
            "JDBC:H2:MEM:shop_0                                  | true",
            "jdbc:h2:tcp://localhost:9092/mem:shop_0             | true",
            "jdbc:h2:ssl://db.example.com/mem:shop_0;MODE=MySQL  | true",
            "jdbc:h2:mem:shop_0;DB_CLOSE_DELAY=-1                | false",
            "jdbc:h2:mem:shop_0;MODE=PostgreSQL;db_close_delay=0 | false",
            "jdbc:h2:mem:shop_0; DB_CLOSE_DELAY = 10             | false",
            "jdbc:h2:mem:                                        | false",
            "jdbc:h2:file:./shop_0                               | false",
            "jdbc:h2:./mem:shop_0                                | false",
            "jdbc:postgresql://localhost/mem:shop_0              | false"})
    void closesWithLastConnection(String url, boolean expected) {
        assertThat(InMemoryDatabaseKeeper.closesWithLastConnection(url)).isEqualTo(expected);
    }

    @Test
    void aPoolThatClosesItsIdleConnectionsKeepsItsDatabaseUntilTheShardRetires() throws Exception {
        try (ShardPools pools = pools()) {
            try (Connection connection = pools.connection(S0); Statement statement = connection.createStatement()) {
                statement.execute("create table kept (id int primary key)");
                connection.commit();
            }
            HikariPoolMXBean pool = pools.startedPools().get(S0).getHikariPoolMXBean();
            pool.softEvictConnections();
            awaitNoConnection(pool);

            assertThat(tables()).as("after the pool closed all its connections").isEqualTo(1);

            pools.retire(S0, 1_000);
            assertThat(tables()).as("after the shard's pool was retired: a new, empty database").isZero();
        }
    }

    @Test
    void aUrlThatSetsItsCloseDelayIsLeftAlone() {
        InMemoryDatabaseKeeper keeper = new InMemoryDatabaseKeeper();
        keeper.keep(new ShardSpec(S0, url + ";DB_CLOSE_DELAY=0", null, null, 1));

        assertThat(keeper.keeps(S0)).isFalse();
    }

    /** Pools over one shard at {@link #url}, keeping no idle connection (min_idle 0). */
    private ShardPools pools() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", "s0");
        settings.put("atomicshards.shard.s0.url", url);
        settings.put("atomicshards.pool.min_idle", "0");
        settings.put("atomicshards.catalog.url", "jdbc:h2:mem:keeper-catalog"); // read, never opened
        ShardingConfig config = SettingsReader.read(settings);
        return new ShardPools(config.topology(), "keeper-test", config.timeouts(), config.idleConnections(), null);
    }

    private static void awaitNoConnection(HikariPoolMXBean pool) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (pool.getTotalConnections() > 0) {
            assertThat(System.nanoTime()).as("the pool's connections closed within 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** The tables of the database at {@link #url}, over a connection of its own (creating the database if none). */
    private long tables() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "select count(*) from information_schema.tables where table_schema = 'PUBLIC'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
