package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad values of the settings of resharding and hot spots fail the boot, naming the setting and the fix. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunTimeFeatureSettingsTest {

    private ShardDatabases dbs;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @ParameterizedTest
    @CsvSource({
            "atomicshards.resharding.write_pause_ms, soon, not a number of milliseconds",
            "atomicshards.resharding.write_pause_ms, -1, not a number of milliseconds",
            "atomicshards.hot_spots.enabled, yes, set it to true or false"})
    void aBadValueFailsTheBootNamingTheSettingAndTheFix(String setting, String value, String why) {
        assertThatThrownBy(() -> Fixtures.builder(dbs, 16).property(setting, value).build())
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting '" + setting + "'")
                .hasMessageContaining(value)
                .hasMessageContaining(why)
                .hasMessageContaining("Fix:");
    }
}
