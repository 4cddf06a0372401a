package org.atomicshards.hibernate.internal.reshard.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.junit.jupiter.api.Test;

class LeaseSettingsTest {

    @Test
    void leasesAreOnWhereTheInstanceRefreshesAndOffWhereItNeverDoes() {
        assertThat(LeaseSettings.read(Map.of(), 5_000))
                .isEqualTo(new LeaseSettings(true, Duration.ofMillis(ShardingSettings.DEFAULT_RESHARDING_LEASE_GRACE),
                        false));
        assertThat(LeaseSettings.read(Map.of(), 0).enabled()).isFalse();
        assertThat(LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false"), 5_000).enabled())
                .isFalse();
        assertThat(LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_LEASE_GRACE, " 250 "), 5_000).grace())
                .isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void operationsEndOtherInstancesSessionsOnlyWhereTheOperatorAllowsIt() {
        assertThat(LeaseSettings.read(Map.of(), 5_000).endSessions()).isFalse();
        assertThat(LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, " true"), 5_000)
                .endSessions()).isTrue();
        assertThatThrownBy(() -> LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "kill"),
                5_000)).isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("'" + ShardingSettings.RESHARDING_END_LEASED_SESSIONS + "' has value 'kill'")
                .hasMessageContaining("Fix:");
    }

    @Test
    void leasesAskedForOnAnInstanceThatNeverRefreshesFailTheBootNamingBothSettings() {
        assertThatThrownBy(() -> LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true"), 0))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(ShardingSettings.RESHARDING_CONNECTION_LEASE)
                .hasMessageContaining(ShardingSettings.CATALOG_REFRESH_INTERVAL + " above 0");
    }

    @Test
    void aValueThatIsNotABooleanOrANumberOfMillisecondsFailsTheBootNamingTheSetting() {
        assertThatThrownBy(() -> LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_CONNECTION_LEASE, "yes"), 5_000))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("'" + ShardingSettings.RESHARDING_CONNECTION_LEASE + "' has value 'yes'");
        assertThatThrownBy(() -> LeaseSettings.read(Map.of(ShardingSettings.RESHARDING_LEASE_GRACE, "-1"), 5_000))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("'" + ShardingSettings.RESHARDING_LEASE_GRACE + "' has value '-1'");
    }
}
