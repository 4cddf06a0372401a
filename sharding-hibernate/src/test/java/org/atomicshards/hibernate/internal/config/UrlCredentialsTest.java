package org.atomicshards.hibernate.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Credentials written into a JDBC URL are taken out of it into the pool's user and password. */
class UrlCredentialsTest {

    static Stream<Arguments> urls() {
        return Stream.of(
                Arguments.of("jdbc:postgresql://db:5432/app?user=postgres&password=s3cret",
                        "jdbc:postgresql://db:5432/app", "postgres", "s3cret"),
                Arguments.of("jdbc:postgresql://db/app?ssl=true&password=s3cret&connectTimeout=5&user=postgres",
                        "jdbc:postgresql://db/app?ssl=true&connectTimeout=5", "postgres", "s3cret"),
                Arguments.of("jdbc:postgresql://db/app?password=p%40ss%26w%3Drd", "jdbc:postgresql://db/app", null, "p@ss&w=rd"),
                Arguments.of("jdbc:postgresql://postgres:s3cret@db:5432/app", "jdbc:postgresql://db:5432/app", "postgres", "s3cret"),
                Arguments.of("jdbc:postgresql://postgres:s3cret@db:5432/app?ssl=true", "jdbc:postgresql://db:5432/app?ssl=true",
                        "postgres", "s3cret"),
                Arguments.of("jdbc:mariadb://db:3306/app?user=root&password=s3%cret", "jdbc:mariadb://db:3306/app", "root", "s3%cret"),
                Arguments.of("jdbc:mariadb://db/app?PASSWORD=s3cret&useSsl=false", "jdbc:mariadb://db/app?useSsl=false", null, "s3cret"),
                Arguments.of("jdbc:h2:mem:s0;DB_CLOSE_DELAY=-1;USER=sa;PASSWORD=s3cret", "jdbc:h2:mem:s0;DB_CLOSE_DELAY=-1", "sa", "s3cret"),
                Arguments.of("jdbc:h2:mem:s0;password=s3cret;MODE=PostgreSQL", "jdbc:h2:mem:s0;MODE=PostgreSQL", null, "s3cret"),
                Arguments.of("jdbc:postgresql://db/app?password=", "jdbc:postgresql://db/app", null, ""),
                Arguments.of("jdbc:postgresql://db/app", "jdbc:postgresql://db/app", null, null),
                Arguments.of("jdbc:h2:mem:plain", "jdbc:h2:mem:plain", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void takesTheCredentialsOutOfTheUrl(String url, String clean, String user, String password) {
        UrlCredentials credentials = UrlCredentials.extract(url);

        assertThat(credentials.url()).isEqualTo(clean);
        assertThat(credentials.user()).isEqualTo(user);
        assertThat(credentials.password()).isEqualTo(password);
        assertThat(credentials.toString()).doesNotContain("s3cret");
    }

    @Nested
    class Settings {

        private Map<String, Object> settings(String url) {
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("atomicshards.shards", "s0");
            settings.put("atomicshards.shard.s0.url", url);
            settings.put("atomicshards.catalog.url", "jdbc:postgresql://cat/catalog?user=cat&password=catalog9secret");
            return settings;
        }

        @Test
        void theShardAndTheCatalogConnectWithTheCredentialsFromTheirUrls() {
            ShardingConfig config = SettingsReader.read(settings("jdbc:postgresql://db/app?user=app&password=hunter2secret"));

            ShardSpec shard = config.topology().shard(ShardId.of("s0"));
            assertThat(shard).extracting(ShardSpec::url, ShardSpec::user, ShardSpec::password)
                    .containsExactly("jdbc:postgresql://db/app", "app", "hunter2secret");
            assertThat(config).extracting(ShardingConfig::catalogUrl, ShardingConfig::catalogUser, ShardingConfig::catalogPassword)
                    .containsExactly("jdbc:postgresql://cat/catalog", "cat", "catalog9secret");
        }

        @Test
        void theSamePasswordInTheUrlAndInItsSettingIsFine() {
            Map<String, Object> settings = settings("jdbc:postgresql://db/app?password=hunter2secret");
            settings.put("atomicshards.shard.s0.password", "hunter2secret");
            settings.put("atomicshards.shard.s0.user", "app");

            ShardSpec shard = SettingsReader.read(settings).topology().shard(ShardId.of("s0"));

            assertThat(shard).extracting(ShardSpec::url, ShardSpec::user, ShardSpec::password)
                    .containsExactly("jdbc:postgresql://db/app", "app", "hunter2secret");
        }

        @Test
        void twoDifferentPasswordsFailNamingBothSettingsButNeitherPassword() {
            Map<String, Object> settings = settings("jdbc:postgresql://db/app?password=hunter2secret");
            settings.put("atomicshards.shard.s0.password", "other7secret");

            assertThatThrownBy(() -> SettingsReader.read(settings))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.shard.s0.url' carries a password and setting "
                            + "'atomicshards.shard.s0.password' gives a different one")
                    .hasMessageContaining("Fix: give the password in one place only")
                    .hasMessageNotContaining("hunter2secret").hasMessageNotContaining("other7secret");
        }

        @Test
        void twoDifferentCatalogUsersFail() {
            Map<String, Object> settings = settings("jdbc:h2:mem:s0");
            settings.put("atomicshards.catalog.user", "someone");

            assertThatThrownBy(() -> SettingsReader.read(settings))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.catalog.url' carries a user and setting "
                            + "'atomicshards.catalog.user' gives a different one")
                    .hasMessageNotContaining("catalog9secret");
        }

        @Test
        void scrubbingLeavesNoPasswordInTheSettings() {
            Map<String, Object> settings = settings("jdbc:postgresql://db/app?user=app&password=hunter2secret&sslpassword=key5secret");
            settings.put("atomicshards.shard.s0.password", "hunter2secret");
            settings.put("hibernate.show_sql", "true");

            SettingsReader.read(settings);
            SettingsReader.scrub(settings);

            assertThat(settings).containsEntry("atomicshards.shard.s0.url", "jdbc:postgresql://db/app?sslpassword=***")
                    .containsEntry("atomicshards.catalog.url", "jdbc:postgresql://cat/catalog")
                    .containsEntry("hibernate.show_sql", "true")
                    .doesNotContainKey("atomicshards.shard.s0.password");
            assertThat(settings.toString()).doesNotContain("secret");
        }
    }
}
