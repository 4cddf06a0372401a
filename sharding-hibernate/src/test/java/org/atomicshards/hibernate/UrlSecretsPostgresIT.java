package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Passwords in PostgreSQL URLs ({@code ?user=..&password=..} and {@code //user:password@host}) for the shards and
 * the catalog: with every logger at ALL, pgjdbc's own {@code Connecting with URL} lines included, the password
 * appears in no log line, no setting and no exception. (The test server trusts local connections, so a wrong
 * password cannot fail here; the MariaDB IT and the H2 test cover that.)
 */
class UrlSecretsPostgresIT {

    private static final String SECRET = "Pg7UrlSecret";

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.POSTGRESQL, 3);
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    private String url(int shard) {
        return dbs.shards().get(shard).url() + "?user=postgres&password=" + SECRET + "&ApplicationName=secrets-it";
    }

    private ShardedSessionFactoryBuilder builder(String s0, String s1) {
        return AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", s0).shard("s1", s1)
                .catalog(url(2))
                .virtualShards(8).connectionTimeoutMillis(2000).schemaAction("create");
    }

    @Test
    void urlPasswordsAreNeverLoggedNorExposed() {
        String userInfoForm = dbs.shards().get(1).url()
                .replace("jdbc:postgresql://", "jdbc:postgresql://postgres:" + SECRET + "@") + "?ApplicationName=secrets-it";

        String logged = UrlSecretScenarios.bootWorkAndFanOut(() -> builder(url(0), userInfoForm), SECRET);

        assertThat(logged).as("pgjdbc logged its connections at DEBUG (the capture sees the driver)")
                .contains("Connecting with URL");
    }

    @Test
    void anUnreachableShardFailsWithoutShowingThePassword() {
        String down = "jdbc:postgresql://127.0.0.1:1/nowhere?user=postgres&password=" + SECRET;

        Throwable atBoot = UrlSecretScenarios.failingConnection(() -> builder(url(0), down), SECRET);
        Throwable atWork = UrlSecretScenarios.failingConnection(() -> builder(url(0), down)
                .property(ShardingSettings.BOOT_CONNECTION_CHECK, "false"), SECRET);

        assertThat(atBoot).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'")
                .hasMessageContaining("jdbc:postgresql://127.0.0.1:1/nowhere");
        assertThat(atWork).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }
}
