package org.atomicshards.hibernate.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.internal.config.SettingsReader;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.junit.jupiter.api.Test;

/** Many shard pools are cheap: one shared housekeeping scheduler, few idle connections, nothing left after close. */
class ShardPoolsTest {

    private static final AtomicInteger FACTORIES = new AtomicInteger();

    private final String factory = "pools-test-" + FACTORIES.incrementAndGet();
    private final String prefix = "atomicshards-" + factory + "-";

    private static Map<String, Object> settings(int shards) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", IntStream.range(0, shards).mapToObj(i -> "s" + i)
                .collect(Collectors.joining(",")));
        long run = System.nanoTime();
        for (int i = 0; i < shards; i++) {
            settings.put("atomicshards.shard.s" + i + ".url", "jdbc:h2:mem:shard-pools-" + run + "-s" + i
                    + ";DB_CLOSE_DELAY=-1");
        }
        settings.put("atomicshards.virtual_shards", 1024);
        settings.put("atomicshards.catalog.url", "jdbc:h2:mem:shard-pools-catalog-" + run); // read, never opened
        return settings;
    }

    private ShardPools pools(Map<String, Object> settings) {
        ShardingConfig config = SettingsReader.read(settings);
        return new ShardPools(config.topology(), factory, config.timeouts(), config.idleConnections(), null);
    }

    private static void use(ShardPools pools, String shard) throws SQLException {
        try (Connection connection = pools.connection(ShardId.of(shard))) {
            assertThat(connection.isValid(1)).isTrue();
        }
    }

    /** The live threads of this test's pools whose name contains {@code part}. */
    private List<Thread> threads(String part) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(thread -> thread.getName().startsWith(prefix) && thread.getName().contains(part))
                .toList();
    }

    @Test
    void everyPoolRunsItsHousekeepingOnTheSharedThreadsAndCloseEndsThem() throws SQLException {
        ShardPools pools = pools(settings(8));
        try {
            for (int i = 0; i < 8; i++) {
                use(pools, "s" + i);
            }
            assertThat(pools.startedPools()).hasSize(8);
            assertThat(threads("housekeeper"))
                    .as("one shared scheduler, not HikariCP's '<pool>:housekeeper' per pool")
                    .isNotEmpty()
                    .hasSizeLessThanOrEqualTo(PoolHousekeeping.THREADS)
                    .allSatisfy(thread -> {
                        assertThat(thread.getName()).matches(prefix + "housekeeper-\\d");
                        assertThat(thread.isDaemon()).isTrue();
                    });
        } finally {
            pools.close();
        }
        assertThat(threads("housekeeper")).as("housekeeping threads after close").isEmpty();
        assertThat(pools.startedPools()).isEmpty();
    }

    @Test
    void noPoolStartsOnceClosed() throws SQLException {
        ShardPools pools = pools(settings(2));
        use(pools, "s0");
        pools.close();
        assertThatThrownBy(() -> pools.connection(ShardId.of("s1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The shard pools are closed");
        assertThat(threads("housekeeper")).isEmpty();
    }

    @Test
    void upToThirtyTwoShardsAPoolKeepsOneIdleConnectionForTenMinutes() throws SQLException {
        try (ShardPools pools = pools(settings(32))) {
            use(pools, "s31");
            var pool = pools.startedPools().get(ShardId.of("s31"));
            assertThat(pool.getMinimumIdle()).isEqualTo(1);
            assertThat(pool.getIdleTimeout()).isEqualTo(600_000);
        }
    }

    @Test
    void aboveThirtyTwoShardsAPoolKeepsNoIdleConnectionAndClosesTheOthersAfterAMinute() throws SQLException {
        try (ShardPools pools = pools(settings(33))) {
            use(pools, "s7");
            var pool = pools.startedPools().get(ShardId.of("s7"));
            assertThat(pool.getMinimumIdle()).isZero();
            assertThat(pool.getIdleTimeout()).isEqualTo(60_000);
            assertThat(pool.getMaximumPoolSize()).isEqualTo(2);
        }
    }

    @Test
    void theIdleSettingsReachEveryPool() throws SQLException {
        Map<String, Object> settings = settings(3);
        settings.put("atomicshards.pool.min_idle", "2");
        settings.put("atomicshards.pool.idle_timeout_ms", "45000");
        try (ShardPools pools = pools(settings)) {
            use(pools, "s0");
            use(pools, "s2");
            assertThat(pools.startedPools().values()).hasSize(2).allSatisfy(pool -> {
                assertThat(pool.getMinimumIdle()).isEqualTo(2);
                assertThat(pool.getIdleTimeout()).isEqualTo(45_000);
            });
        }
    }

    @Test
    void aShardThatIsDownFailsWithShardUnavailableExceptionAndTheOthersKeepWorking() throws SQLException {
        Map<String, Object> settings = settings(2);
        settings.put("atomicshards.shard.s1.url", "jdbc:h2:tcp://127.0.0.1:1/nowhere");
        settings.put("atomicshards.pool.connection_timeout_ms", "250");
        try (ShardPools pools = pools(settings)) {
            use(pools, "s0");
            assertThatThrownBy(() -> pools.connection(ShardId.of("s1")))
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Shard 's1'")
                    .hasMessageContaining("is unavailable: no connection within 250 ms");
            use(pools, "s0");
            assertThat(threads("housekeeper")).hasSizeLessThanOrEqualTo(PoolHousekeeping.THREADS);
        }
    }
}
