package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.atomicshards.hibernate.model.User;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Shard and catalog passwords never reach Hibernate's settings: not its DEBUG settings log, not
 * {@code getProperties()}, yet the connections still authenticate with them.
 */
class SecretsTest {

    private static final String SHARD_PASSWORD = "hunter2secret";
    private static final String CATALOG_PASSWORD = "catalog9secret";

    private final List<Connection> keepAlive = new ArrayList<>();
    private final List<String> logged = new ArrayList<>();
    private final Logger hibernateLogger = Logger.getLogger("org.hibernate");
    private Level previousLevel;
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            Object[] parameters = record.getParameters();
            synchronized (logged) {
                logged.add(message + (parameters == null ? "" : java.util.Arrays.deepToString(parameters)));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureHibernateLog() {
        previousLevel = hibernateLogger.getLevel();
        hibernateLogger.setLevel(Level.ALL);
        capture.setLevel(Level.ALL);
        hibernateLogger.addHandler(capture);
    }

    @AfterEach
    void release() throws SQLException {
        hibernateLogger.removeHandler(capture);
        hibernateLogger.setLevel(previousLevel);
        for (Connection connection : keepAlive) {
            connection.close();
        }
    }

    /** A private in-memory H2 database that only accepts {@code owner} / {@code password}. */
    private String securedDatabase(String password) throws SQLException {
        String url = "jdbc:h2:mem:secret-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        keepAlive.add(DriverManager.getConnection(url, "owner", password));
        return url;
    }

    @Test
    void passwordsAreNeitherLoggedNorExposedButStillAuthenticate() throws SQLException {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", securedDatabase(SHARD_PASSWORD), "owner", SHARD_PASSWORD)
                .shard("s1", securedDatabase(SHARD_PASSWORD), "owner", SHARD_PASSWORD)
                .catalog(securedDatabase(CATALOG_PASSWORD), "owner", CATALOG_PASSWORD)
                .virtualShards(8)
                .schemaAction("create");
        try (ShardedSessionFactory shards = builder.build()) {
            assertThat(String.join("\n", logged))
                    .as("Hibernate logged its settings at DEBUG (the capture works)")
                    .contains("Instantiating factory")
                    .doesNotContain(SHARD_PASSWORD)
                    .doesNotContain(CATALOG_PASSWORD);
            assertThat(shards.sessionFactory().getProperties().toString())
                    .contains("atomicshards.shard.s0.url")
                    .doesNotContain(SHARD_PASSWORD)
                    .doesNotContain(CATALOG_PASSWORD);

            for (long id = 1; id <= 8; id++) {
                long key = id;
                ShardId shard = shards.shardForWrite(new User(key, "u" + key)).orElseThrow();
                try (var session = shards.openSession(shard)) {
                    session.inTransaction(tx -> session.persist(new User(key, "u" + key)));
                }
                try (var session = shards.openSession(shard)) {
                    assertThat(session.find(User.class, key)).isNotNull();
                }
            }
        }
    }
}
