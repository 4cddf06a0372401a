package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The time limits on every wait for a shard: defaults that bound each other, and bad values rejected by name. */
class TimeoutSettingsTest {

    private static Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(ShardingSettings.SHARDS, "s0");
        settings.put(ShardingSettings.SHARD_PREFIX + "s0.url", "jdbc:h2:mem:timeouts");
        return settings;
    }

    @Test
    void theDefaultsBoundEveryWait() {
        ShardTimeouts timeouts = SettingsReader.read(settings()).timeouts();

        assertThat(timeouts.connectionTimeoutMillis()).isEqualTo(5_000);
        assertThat(timeouts.validationTimeoutMillis()).isEqualTo(2_500);
        assertThat(timeouts.transactionTimeoutMillis()).isEqualTo(30_000);
        assertThat(timeouts.socketTimeoutMillis()).as("longest statement timeout + 1 s").isEqualTo(31_000);
    }

    @Test
    void theDefaultSocketTimeoutOutlastsALongerFanOutTimeout() {
        Map<String, Object> settings = settings();
        settings.put(FanOutSettings.TIMEOUT_MS, 60_000);
        settings.put(ShardingSettings.TRANSACTION_TIMEOUT, "3000");
        settings.put(ShardingSettings.POOL_CONNECTION_TIMEOUT, 2000);

        ShardTimeouts timeouts = SettingsReader.read(settings).timeouts();

        assertThat(timeouts.transactionTimeoutMillis()).isEqualTo(3_000);
        assertThat(timeouts.socketTimeoutMillis()).isEqualTo(61_000);
        assertThat(timeouts.validationTimeoutMillis()).as("half the connection timeout").isEqualTo(1_000);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"atomicshards.transaction_timeout_ms, 999", "atomicshards.pool.socket_timeout_ms, 500"})
    void aTimeoutBelowOneSecondIsRejectedNamingTheSetting(String setting, String value) {
        Map<String, Object> settings = settings();
        settings.put(setting, value);

        assertThatThrownBy(() -> SettingsReader.read(settings))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting '" + setting + "' has value '" + value + "'")
                .hasMessageContaining("Fix: use at least 1000");
    }
}
