package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Fan-out settings: validated with messages naming the setting, the value and the fix; read by the factory. */
class FanOutSettingsTest {

    @Nested
    class Validation {

        @Test
        void invalidValuesNameTheSettingAndTheFix() {
            assertThatThrownBy(() -> FanOutSettings.builder().parallelism(0).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("parallelism=0").hasMessageContaining("use 1 to 1024 threads");
            assertThatThrownBy(() -> FanOutSettings.builder().fetchSize(-3).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fetchSize=-3");
            assertThatThrownBy(() -> FanOutSettings.builder().timeout(Duration.ZERO).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout=PT0S");
        }

        @ParameterizedTest
        @CsvSource({
                "atomicshards.fanout.parallelism, many, use a whole number",
                "atomicshards.fanout.policy, SOME, use one of [COMPLETE, PARTIAL]",
                "atomicshards.fanout.access, RANDOM, use one of [PARALLEL, SEQUENTIAL]",
                "atomicshards.fanout.timeout_ms, -5, use a positive duration",
                "atomicshards.fanout.replicas, yes, use true or false"})
        void invalidPropertiesNameTheProperty(String property, String value, String fix) {
            assertThatThrownBy(() -> FanOutSettings.fromProperties(Map.of(property, value)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(fix);
        }

        @Test
        void propertiesGiveTheSettings() {
            FanOutSettings settings = FanOutSettings.fromProperties(Map.of(FanOutSettings.PARALLELISM, "3",
                    FanOutSettings.ACCESS, "sequential", FanOutSettings.TIMEOUT_MS, "1500",
                    FanOutSettings.POLICY, "PARTIAL", FanOutSettings.FETCH_SIZE, 50, FanOutSettings.REPLICAS, "true"));
            assertThat(settings.parallelism()).isEqualTo(3);
            assertThat(settings.access()).isEqualTo(ShardAccess.SEQUENTIAL);
            assertThat(settings.timeout()).isEqualTo(Duration.ofMillis(1500));
            assertThat(settings.policy()).isEqualTo(ExecutionPolicy.PARTIAL);
            assertThat(settings.fetchSize()).isEqualTo(50);
            assertThat(settings.replicas()).isTrue();
            assertThat(FanOutSettings.defaults().replicas()).as("primaries unless asked").isFalse();
        }
    }

    @Nested
    class OnTheRuntimeFactory {

        private ShardedSessionFactoryBuilder builder(ShardDatabases databases) {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                    .annotatedClasses(Account.class, Purchase.class, Country.class)
                    .schemaAction("create");
            databases.settings().forEach(builder::property);
            return builder;
        }

        @Test
        void theBuilderAndThePropertiesSetTheFanOutSettings() {
            try (ShardDatabases databases = ShardDatabases.create(DatabaseKind.H2, 2)) {
                FanOutSettings given = FanOutSettings.builder().policy(ExecutionPolicy.PARTIAL).build();
                try (ShardedSessionFactory shards = builder(databases).fanOut(given).build()) {
                    assertThat(shards.fanOut().settings()).isSameAs(given);
                    assertThat(shards.fanOut()).isSameAs(shards.fanOut());
                }
                try (ShardedSessionFactory shards = builder(databases).property(FanOutSettings.TIMEOUT_MS, "2500")
                        .build()) {
                    assertThat(shards.fanOut().settings().timeout()).isEqualTo(Duration.ofMillis(2500));
                }
            }
        }

        @Test
        void anInvalidPropertyFailsTheBoot() {
            try (ShardDatabases databases = ShardDatabases.create(DatabaseKind.H2, 2)) {
                assertThatThrownBy(() -> builder(databases).property(FanOutSettings.FETCH_SIZE, "0").build())
                        .isInstanceOf(ShardConfigurationException.class)
                        .hasMessageContaining("fetchSize=0").hasMessageContaining(FanOutSettings.FETCH_SIZE);
            }
        }
    }
}
