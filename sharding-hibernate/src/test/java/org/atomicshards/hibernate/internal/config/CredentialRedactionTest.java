package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A password written into a URL never shows in a configuration error or in the configuration's toString. */
class CredentialRedactionTest {

    private static Map<String, Object> settings(String shardUrl, String catalogUrl) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", "s0");
        settings.put("atomicshards.shard.s0.url", shardUrl);
        settings.put("atomicshards.shard.s0.user", "app");
        settings.put("atomicshards.shard.s0.password", "hunter2secret");
        settings.put("atomicshards.catalog.url", catalogUrl);
        return settings;
    }

    @Nested
    class InvalidUrlMessages {

        @ParameterizedTest
        @ValueSource(strings = {"postgresql://u:hunter2secret@db.example/app",
                "postgresql://db.example/app?user=u&password=hunter2secret",
                "h2:mem:x;USER=u;PASSWORD=hunter2secret"})
        void nameTheSettingButNotThePassword(String url) {
            assertThatThrownBy(() -> SettingsReader.read(settings(url, "jdbc:h2:mem:catalog")))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.shard.s0.url' has value '")
                    .hasMessageContaining("which is not a JDBC URL")
                    .hasMessageNotContaining("hunter2secret");
        }
    }

    @Nested
    class ToString {

        @ParameterizedTest
        @ValueSource(strings = {"jdbc:postgresql://app:hunter2secret@db.example/app",
                "jdbc:postgresql://db.example/app?user=app&password=hunter2secret",
                "jdbc:postgresql://db.example/app;PASSWORD=hunter2secret"})
        void ofTheConfigAndItsShardsHidesUrlPasswords(String url) {
            ShardingConfig config = SettingsReader.read(settings(url, url.replace("/app", "/catalog")));
            assertThat(config.toString()).contains("catalog=jdbc:postgresql:").doesNotContain("hunter2secret");
            assertThat(config.topology().shard(ShardId.of("s0")).toString())
                    .startsWith("ShardSpec[s0, jdbc:").contains("user=app").doesNotContain("hunter2secret");
        }
    }
}
