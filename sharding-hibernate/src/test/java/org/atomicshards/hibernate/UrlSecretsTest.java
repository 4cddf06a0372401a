package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Passwords written into H2 URLs ({@code ;USER=...;PASSWORD=...}) authenticate the shards and the catalog but
 * never appear in a log line at any level, in Hibernate's settings or in an exception message.
 */
class UrlSecretsTest {

    private static final String SHARD_SECRET = "Url7ShardSecret";
    private static final String CATALOG_SECRET = "Url7CatalogSecret";

    private final List<Connection> keepAlive = new ArrayList<>();

    @AfterEach
    void release() throws SQLException {
        for (Connection connection : keepAlive) {
            connection.close();
        }
    }

    /**
     * A private in-memory H2 database that only accepts {@code owner} / {@code password}; its URL with the
     * credentials in it, and H2's own trace sent to SLF4J (TRACE_LEVEL_FILE=4) so that it is captured too.
     */
    private String securedUrl(String password) throws SQLException {
        String url = "jdbc:h2:mem:secret-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        keepAlive.add(DriverManager.getConnection(url, "owner", password));
        return url + ";TRACE_LEVEL_FILE=4;USER=owner;PASSWORD=" + password;
    }

    private ShardedSessionFactoryBuilder builder(String s0, String s1, String catalog) {
        return AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", s0).shard("s1", s1).catalog(catalog)
                .virtualShards(8).connectionTimeoutMillis(1000).schemaAction("create");
    }

    @Test
    void urlPasswordsAuthenticateButAreNeverLoggedNorExposed() throws SQLException {
        String s0 = securedUrl(SHARD_SECRET);
        String s1 = securedUrl(SHARD_SECRET);
        String catalog = securedUrl(CATALOG_SECRET);

        String logged = UrlSecretScenarios.bootWorkAndFanOut(() -> builder(s0, s1, catalog), SHARD_SECRET, CATALOG_SECRET);

        assertThat(logged).as("H2's trace went through the capture").contains("h2database");
    }

    @Test
    void aWrongPasswordInTheUrlFailsTheBootWithoutShowingIt() throws SQLException {
        String right = securedUrl(SHARD_SECRET);
        String wrong = securedUrl(SHARD_SECRET).replace(SHARD_SECRET, "Wrong7Secret");

        String catalog = securedUrl(CATALOG_SECRET);
        Throwable failure = UrlSecretScenarios.failingConnection(() -> builder(right, wrong, catalog),
                "Wrong7Secret", SHARD_SECRET, CATALOG_SECRET);

        assertThat(failure).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }

    @Test
    void anUnreachableShardFailsWithoutShowingThePassword() throws SQLException {
        String down = "jdbc:h2:tcp://127.0.0.1:1/mem:nowhere;USER=owner;PASSWORD=" + SHARD_SECRET;
        String s0 = securedUrl(SHARD_SECRET);
        String catalog = securedUrl(CATALOG_SECRET);

        Throwable atBoot = UrlSecretScenarios.failingConnection(() -> builder(s0, down, catalog), SHARD_SECRET, CATALOG_SECRET);
        Throwable atWork = UrlSecretScenarios.failingConnection(() -> builder(s0, down, catalog)
                .property(ShardingSettings.BOOT_CONNECTION_CHECK, "false"), SHARD_SECRET, CATALOG_SECRET);

        assertThat(atBoot).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'")
                .hasMessageContaining("jdbc:h2:tcp://127.0.0.1:1/mem:nowhere");
        assertThat(atWork).isInstanceOf(ShardUnavailableException.class).hasMessageContaining("Shard 's1'");
    }
}
