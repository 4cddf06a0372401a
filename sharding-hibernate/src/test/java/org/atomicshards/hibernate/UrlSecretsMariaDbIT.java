package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
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
    private static final String ADMIN_URL = System.getProperty("atomicshards.it.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/");

    private ShardDatabases dbs;
    private String account;

    @BeforeEach
    void databasesAndAccount() throws SQLException {
        dbs = ShardDatabases.create(DatabaseKind.MARIADB, 3);
        // Generated names and a constant password: nothing user-supplied reaches these statements.
        account = "as_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        admin("create user '" + account + "'@'%' identified by '" + SECRET + "'");
        for (ShardDatabase shard : dbs.shards()) {
            admin("grant all on " + databaseName(shard) + ".* to '" + account + "'@'%'");
        }
    }

    @AfterEach
    void drop() throws SQLException {
        try {
            admin("drop user if exists '" + account + "'@'%'");
        } finally {
            dbs.close();
        }
    }

    private static String databaseName(ShardDatabase shard) {
        String name = shard.url().substring(shard.url().lastIndexOf('/') + 1);
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalStateException("Unexpected database name " + name);
        }
        return name;
    }

    private static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN_URL, System.getProperty("atomicshards.it.mariadb.user", "root"),
                System.getProperty("atomicshards.it.mariadb.password", ""));
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private String url(int shard, String password) {
        return dbs.shards().get(shard).url() + "?user=" + account + "&password=" + password + "&connectTimeout=2000";
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
        String down = "jdbc:mariadb://127.0.0.1:1/nowhere?user=" + account + "&password=" + SECRET;

        Throwable atBoot = UrlSecretScenarios.failingConnection(() -> builder(url(0, SECRET), down), SECRET);

        assertThat(atBoot).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }
}
