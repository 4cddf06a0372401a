package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The default pool sizes add up within the default bound for any number of shards. */
class PoolDefaultsTest {

    private static Map<String, Object> settings(int shards) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", IntStream.range(0, shards).mapToObj(i -> "s" + i)
                .collect(Collectors.joining(",")));
        for (int i = 0; i < shards; i++) {
            settings.put("atomicshards.shard.s" + i + ".url", "jdbc:h2:mem:pool-defaults-s" + i);
        }
        settings.put("atomicshards.virtual_shards", 1024);
        return settings;
    }

    @ParameterizedTest(name = "{0} shards: max_total {1}, {2} per shard")
    @CsvSource({"1, 64, 64", "2, 64, 32", "3, 64, 21", "32, 64, 2", "33, 66, 2", "40, 80, 2", "500, 1000, 2"})
    void withNothingSetTheConfigurationIsValid(int shards, int maxTotal, int perShard) {
        ShardingConfig config = SettingsReader.read(settings(shards));
        assertThat(config.maxTotalConnections()).isEqualTo(maxTotal);
        assertThat(config.topology().shardIds()).allSatisfy(id ->
                assertThat(config.topology().shard(id).poolSize()).isEqualTo(perShard));
    }

    @ParameterizedTest(name = "max_total {1} over {0} shards: {2} per shard")
    @CsvSource({"40, 40, 1", "40, 100, 2", "4, 10, 2", "2, 3, 1"})
    void anExplicitBoundIsSharedOut(int shards, int maxTotal, int perShard) {
        Map<String, Object> settings = settings(shards);
        settings.put("atomicshards.pool.max_total", maxTotal);
        ShardingConfig config = SettingsReader.read(settings);
        assertThat(config.topology().shard(ShardId.of("s0")).poolSize()).isEqualTo(perShard);
    }

    @ParameterizedTest(name = "{0} shards: min idle {1}, idle timeout {2} ms")
    @CsvSource({"1, 1, 600000", "32, 1, 600000", "33, 0, 60000", "256, 0, 60000"})
    void manyShardsKeepFewerIdleConnectionsByDefault(int shards, int minIdle, long idleTimeout) {
        ShardingConfig config = SettingsReader.read(settings(shards));
        assertThat(config.idleConnections()).isEqualTo(new IdleConnections(minIdle, idleTimeout));
    }

    @ParameterizedTest(name = "min_idle {0}, idle_timeout_ms {1}")
    @CsvSource({"0, 10000", "2, 1799000", "1, 30000"})
    void explicitIdleSettingsWithinTheirBoundsAreKept(int minIdle, long idleTimeout) {
        Map<String, Object> settings = settings(256);
        settings.put("atomicshards.pool.min_idle", String.valueOf(minIdle));
        settings.put("atomicshards.pool.idle_timeout_ms", idleTimeout);
        ShardingConfig config = SettingsReader.read(settings);
        assertThat(config.idleConnections()).isEqualTo(new IdleConnections(minIdle, idleTimeout));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "atomicshards.pool.min_idle|-1|Setting 'atomicshards.pool.min_idle' has value '-1', which is not a non-negative whole number. Fix: e.g. 1",
            "atomicshards.pool.min_idle|some|Setting 'atomicshards.pool.min_idle' has value 'some', which is not a non-negative whole number",
            "atomicshards.pool.min_idle|3|Setting 'atomicshards.pool.min_idle' has value '3' but the pool of shard 's0' holds at most 2 connections, so it could never keep that many idle. Fix: lower atomicshards.pool.min_idle to at most 2 or raise atomicshards.pool.size / atomicshards.shard.s0.pool_size",
            "atomicshards.pool.idle_timeout_ms|9999|Setting 'atomicshards.pool.idle_timeout_ms' has value '9999'. Fix: use from 10000 (HikariCP's minimum) to 1799000 (below a connection's 30-minute maximum lifetime), e.g. 600000",
            "atomicshards.pool.idle_timeout_ms|1800000|Setting 'atomicshards.pool.idle_timeout_ms' has value '1800000'. Fix: use from 10000",
            "atomicshards.pool.idle_timeout_ms|0|Setting 'atomicshards.pool.idle_timeout_ms' has value '0'. Fix: use from 10000",
            "atomicshards.pool.idle_timeout_ms|1m|Setting 'atomicshards.pool.idle_timeout_ms' has value '1m', which is not a non-negative whole number. Fix: e.g. 600000"})
    void aBadIdleSettingFailsNamingTheSettingAndTheFix(String setting, String value, String message) {
        Map<String, Object> settings = settings(2);
        settings.put("atomicshards.pool.size", "2");
        settings.put(setting, value);
        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest(name = "max_total {1} over {0} shards")
    @CsvSource({"40, 39", "3, 2"})
    void aBoundBelowOneConnectionPerShardFailsNamingTheFix(int shards, int maxTotal) {
        Map<String, Object> settings = settings(shards);
        settings.put("atomicshards.pool.max_total", maxTotal);
        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.pool.max_total' has value '" + maxTotal + "' but there are "
                        + shards + " shards")
                .hasMessageContaining("Fix: raise atomicshards.pool.max_total to at least " + shards);
    }
}
