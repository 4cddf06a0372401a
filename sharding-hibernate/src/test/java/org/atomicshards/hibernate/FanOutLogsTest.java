package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A fan-out logs nothing at WARN or above: no shard's session may complain while its connection goes back to the
 * pool (on PostgreSQL, resetting a read-only connection inside the open transaction logged HHH10003016 with a stack
 * trace for every shard of every query). Hibernate logs through JBoss Logging and Atomic Shards through
 * {@code System.Logger}, both to {@code java.util.logging} in this module's tests, so a handler on the root logger
 * sees all of it. The {@code *IT} subclasses run it on PostgreSQL and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FanOutLogsTest {

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private final List<LogRecord> warnings = Collections.synchronizedList(new ArrayList<>());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final Logger root = Logger.getLogger("");
    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeAll
    void boot() {
        dbs = ShardDatabases.create(kind(), 3);
        shards = Fixtures.builder(dbs, 64).build();
        for (long id = 0; id < 60; id++) {
            shards.persist(new User(id, "user" + id + "@example.com"));
        }
    }

    @AfterAll
    void shutDown() {
        try {
            shards.close();
        } finally {
            dbs.close();
        }
    }

    @BeforeEach
    void capture() {
        warnings.clear();
        root.addHandler(capture);
    }

    @AfterEach
    void release() {
        root.removeHandler(capture);
    }

    @Test
    void aListReadAtOnceLogsNoWarning() {
        List<User> users = shards.fanOut().createQuery("select u from User u order by u.id", User.class).getResultList();

        assertThat(users).hasSize(60);
        assertNoWarning();
    }

    @Test
    void aStreamReadLazilyAndClosedEarlyLogsNoWarning() {
        try (Stream<User> users = shards.fanOut().createQuery("select u from User u order by u.id", User.class)
                .setFetchSize(5).getResultStream()) {
            assertThat(users.limit(7).map(User::getId).toList()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        }
        assertNoWarning();
    }

    @Test
    void aCountAndAPagedQueryLogNoWarning() {
        Long count = shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
        List<User> page = shards.fanOut().createQuery("select u from User u order by u.id desc", User.class)
                .setFirstResult(10).setMaxResults(5).getResultList();

        assertThat(count).isEqualTo(60L);
        assertThat(page).hasSize(5);
        assertNoWarning();
    }

    private void assertNoWarning() {
        assertThat(warnings).as("records logged at WARN or above during the fan-out")
                .extracting(record -> record.getLoggerName() + ": " + record.getMessage()
                        + (record.getThrown() == null ? "" : " / " + record.getThrown()))
                .isEmpty();
    }
}
