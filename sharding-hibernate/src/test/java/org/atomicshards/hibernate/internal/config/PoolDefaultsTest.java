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
