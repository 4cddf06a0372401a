package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.junit.jupiter.api.Test;

/**
 * The settings of shards this instance does not list but may meet at run time (added by {@code addShard} here or in
 * another instance), and the topology refresh interval.
 */
class RunTimeShardSettingsTest {

    private static final ShardId S9 = ShardId.of("s9");

    private static Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(ShardingSettings.SHARDS, "s0,s1");
        settings.put("atomicshards.shard.s0.url", "jdbc:h2:mem:s0");
        settings.put("atomicshards.shard.s1.url", "jdbc:h2:mem:s1");
        settings.put(ShardingSettings.POOL_SIZE, 7);
        return settings;
    }

    @Test
    void anUnlistedShardIsReachedAtTheCatalogsUrlWithThisInstancesCredentials() {
        Map<String, Object> settings = settings();
        settings.put("atomicshards.shard.s9.user", "app");
        settings.put("atomicshards.shard.s9.password", "s9-secret");
        Topology topology = SettingsReader.read(settings).topology();

        assertThat(topology.shardIds()).containsExactly(ShardId.of("s0"), ShardId.of("s1"));
        ShardSpec spec = topology.runTimeShard(S9, "jdbc:postgresql://db9/app").orElseThrow();
        assertThat(spec.url()).isEqualTo("jdbc:postgresql://db9/app");
        assertThat(spec.user()).isEqualTo("app");
        assertThat(spec.password()).isEqualTo("s9-secret");
        assertThat(spec.poolSize()).isEqualTo(7);
        assertThat(spec.toString()).doesNotContain("s9-secret");
        assertThat(topology.find(S9)).as("known only once the catalog names it").isEmpty();
    }

    @Test
    void anUnlistedShardsOwnUrlWinsOverTheCatalogsAndLosesItsCredentials() {
        Map<String, Object> settings = settings();
        settings.put("atomicshards.shard.s9.url", "jdbc:postgresql://db9.internal/app?user=app&password=in-url");
        settings.put("atomicshards.shard.s9.pool_size", 3);
        Topology topology = SettingsReader.read(settings).topology();

        ShardSpec spec = topology.runTimeShard(S9, "jdbc:postgresql://db9/app").orElseThrow();
        assertThat(spec.url()).isEqualTo("jdbc:postgresql://db9.internal/app");
        assertThat(spec.user()).isEqualTo("app");
        assertThat(spec.password()).isEqualTo("in-url");
        assertThat(spec.poolSize()).isEqualTo(3);
    }

    @Test
    void withoutAnyUrlThereIsNoSpecAndTheHintNamesTheSettings() {
        Topology topology = SettingsReader.read(settings()).topology();
        assertThat(topology.runTimeShard(S9, null)).isEmpty();
        assertThat(topology.runTimeShard(S9, "jdbc:h2:mem:s9").orElseThrow().user()).isNull();
        assertThat(topology.connectionSettingsHint(S9))
                .contains("added at run time")
                .contains("set atomicshards.shard.s9.user and atomicshards.shard.s9.password");
    }

    @Test
    void anUnlistedShardsUrlMustBeJdbc() {
        Map<String, Object> settings = settings();
        settings.put("atomicshards.shard.s9.url", "postgresql://db9/app?password=hunter2");
        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.shard.s9.url'")
                .hasMessageContaining("not a JDBC URL")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void theRefreshIntervalDefaultsToFiveSecondsAcceptsZeroAndRefusesLessThan100() {
        assertThat(SettingsReader.read(settings()).catalogOptions().refreshIntervalMillis()).isEqualTo(5000);
        Map<String, Object> never = settings();
        never.put(ShardingSettings.CATALOG_REFRESH_INTERVAL, 0);
        assertThat(SettingsReader.read(never).catalogOptions().refreshIntervalMillis()).isZero();
        Map<String, Object> tooShort = settings();
        tooShort.put(ShardingSettings.CATALOG_REFRESH_INTERVAL, 50);
        assertThatThrownBy(() -> SettingsReader.read(tooShort))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.catalog.refresh_interval_ms' has value '50'")
                .hasMessageContaining("Fix: use at least 100, or 0 to never refresh");
    }

    @Test
    void topologyChangesAreVisibleAsNewSnapshots() {
        Topology topology = SettingsReader.read(settings()).topology();
        var before = topology.shardIds();
        topology.stage(new ShardSpec(S9, "jdbc:h2:mem:s9", null, null, 1));
        assertThat(topology.shardIds()).isSameAs(before);
        assertThat(topology.find(S9)).isPresent();
        assertThatThrownBy(() -> topology.stage(new ShardSpec(S9, "jdbc:h2:mem:other", null, null, 1)))
                .isInstanceOf(IllegalStateException.class);
        topology.activate(S9);
        assertThat(topology.shardIds()).containsExactly(ShardId.of("s0"), ShardId.of("s1"), S9);
        assertThat(before).hasSize(2);
        topology.retire(S9);
        assertThat(topology.shardIds()).containsExactly(ShardId.of("s0"), ShardId.of("s1"));
        assertThat(topology.find(S9)).isEmpty();
    }
}
