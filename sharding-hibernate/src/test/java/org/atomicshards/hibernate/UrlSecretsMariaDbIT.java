package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.MariaDbAccount;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Passwords in MariaDB URLs ({@code ?user=..&password=..}) for the shards and the catalog, checked against a
 * password-protected account created for the test: with every logger at ALL (MariaDB Connector/J and HikariCP
 * through SLF4J) the password appears in no log line, no setting and no exception, and a wrong one fails cleanly.
 */
class UrlSecretsMariaDbIT {

    private static final String SECRET = "Maria7UrlSecret";

    private ShardDatabases dbs;
    private MariaDbAccount account;

    @BeforeEach
    void databasesAndAccount() throws SQLException {
        dbs = ShardDatabases.create(DatabaseKind.MARIADB, 3);
        account = MariaDbAccount.create("as_", SECRET, dbs.shards());
    }

    @AfterEach
    void drop() throws SQLException {
        try {
            account.close();
        } finally {
            dbs.close();
        }
    }

    private String url(int shard, String password) {
        return dbs.shards().get(shard).url() + "?user=" + account.name() + "&password=" + password + "&connectTimeout=2000";
    }

    private ShardedSessionFactoryBuilder builder(String s0, String s1) {
        return AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", s0).shard("s1", s1)
                .catalog(url(2, SECRET))
                .virtualShards(8).connectionTimeoutMillis(2000).schemaAction("create");
    }

    @Test
    void urlPasswordsAuthenticateButAreNeverLoggedNorExposed() {
        String logged = UrlSecretScenarios.bootWorkAndFanOut(() -> builder(url(0, SECRET), url(1, SECRET)), SECRET);

        assertThat(logged).as("HikariCP logged through SLF4J (the capture sees SLF4J loggers)").contains("com.zaxxer.hikari");
    }

    @Test
    void aWrongPasswordFailsWithoutShowingEitherPassword() {
        Throwable atBoot = UrlSecretScenarios.failingConnection(
                () -> builder(url(0, SECRET), url(1, "Wrong7Secret")), SECRET, "Wrong7Secret");
        Throwable atWork = UrlSecretScenarios.failingConnection(() -> builder(url(0, SECRET), url(1, "Wrong7Secret"))
                .property(ShardingSettings.BOOT_CONNECTION_CHECK, "false"), SECRET, "Wrong7Secret");

        assertThat(atBoot).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'")
                .hasMessageContaining("Access denied");
        assertThat(atWork).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }

    @Test
    void anUnreachableShardFailsWithoutShowingThePassword() {
        String down = "jdbc:mariadb://127.0.0.1:1/nowhere?user=" + account.name() + "&password=" + SECRET;

        Throwable atBoot = UrlSecretScenarios.failingConnection(() -> builder(url(0, SECRET), down), SECRET);

        assertThat(atBoot).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }
}
