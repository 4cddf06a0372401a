package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.directory.CatalogSchemaAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The catalog settings: server-database shards refuse the implicit embedded catalog (each instance would get a private
 * one) unless a single-instance deployment is declared; embedded H2 shards keep it silently; the schema action and
 * the timeouts are validated.
 */
class CatalogSettingsTest {

    private static Map<String, Object> shards(String s0Url, String s1Url) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(ShardingSettings.SHARDS, "s0,s1");
        settings.put("atomicshards.shard.s0.url", s0Url);
        settings.put("atomicshards.shard.s1.url", s1Url);
        return settings;
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:postgresql://db.example/app_s1?password=hunter2secret",
            "jdbc:mariadb://db.example/app_s1", "jdbc:h2:tcp://db.example/app_s1", "jdbc:h2:ssl://db.example/app_s1"})
    void serverShardsWithoutACatalogUrlFailNamingTheSettingAndBothFixes(String serverUrl) {
        assertThatThrownBy(() -> SettingsReader.read(shards("jdbc:h2:mem:s0", serverUrl)))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.catalog.url' is missing while shard 's1' is a server database")
                .hasMessageContaining("Fix: set atomicshards.catalog.url to a database every instance shares")
                .hasMessageContaining("atomicshards.catalog.single_instance=true")
                .hasMessageNotContaining("hunter2secret");
    }

    @Test
    void aSingleInstanceDeploymentKeepsTheEmbeddedDefault() {
        Map<String, Object> settings = shards("jdbc:postgresql://db.example/s0", "jdbc:postgresql://db.example/s1");
        settings.put(ShardingSettings.CATALOG_SINGLE_INSTANCE, "true");
        assertThat(SettingsReader.read(settings).catalogUrl()).isEqualTo(ShardingSettings.DEFAULT_CATALOG_URL);
    }

    @Test
    void serverShardsWithAnExplicitCatalogUrlBoot() {
        Map<String, Object> settings = shards("jdbc:postgresql://db.example/s0", "jdbc:postgresql://db.example/s1");
        settings.put(ShardingSettings.CATALOG_URL, "jdbc:postgresql://db.example/catalog");
        assertThat(SettingsReader.read(settings).catalogUrl()).isEqualTo("jdbc:postgresql://db.example/catalog");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:h2:mem:s1", "jdbc:h2:file:./data/s1", "jdbc:h2:./data/s1;AUTO_SERVER=TRUE"})
    void embeddedH2ShardsKeepTheEmbeddedDefaultSilently(String embeddedUrl) {
        ShardingConfig config = SettingsReader.read(shards("jdbc:h2:mem:s0", embeddedUrl));
        assertThat(config.catalogUrl()).isEqualTo(ShardingSettings.DEFAULT_CATALOG_URL);
        assertThat(config.catalogOptions().schemaAction()).isEqualTo(CatalogSchemaAction.CREATE);
    }

    @Test
    void theSchemaActionAndTheTimeoutsAreRead() {
        Map<String, Object> settings = shards("jdbc:h2:mem:s0", "jdbc:h2:mem:s1");
        settings.put(ShardingSettings.CATALOG_SCHEMA, "validate");
        settings.put(ShardingSettings.CATALOG_CONNECTION_TIMEOUT, "1500");
        settings.put(ShardingSettings.CATALOG_LOCK_TIMEOUT, "20000");
        ShardingConfig config = SettingsReader.read(settings);
        assertThat(config.catalogOptions().schemaAction()).isEqualTo(CatalogSchemaAction.VALIDATE);
        assertThat(config.catalogOptions().connectionTimeoutMillis()).isEqualTo(1500);
        assertThat(config.catalogOptions().lockTimeoutMillis()).isEqualTo(20000);
    }

    @Test
    void anUnknownSchemaActionNamesTheChoices() {
        Map<String, Object> settings = shards("jdbc:h2:mem:s0", "jdbc:h2:mem:s1");
        settings.put(ShardingSettings.CATALOG_SCHEMA, "update");
        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.catalog.schema' has value 'update'. Fix: use one of [create, validate]");
    }

    @Test
    void aCatalogConnectionTimeoutBelowHikarisMinimumIsRefused() {
        Map<String, Object> settings = shards("jdbc:h2:mem:s0", "jdbc:h2:mem:s1");
        settings.put(ShardingSettings.CATALOG_CONNECTION_TIMEOUT, "100");
        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("'atomicshards.catalog.connection_timeout_ms' has value '100'. Fix: use at least 250");
    }
}
