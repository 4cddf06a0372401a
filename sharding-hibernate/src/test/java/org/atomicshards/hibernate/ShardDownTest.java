package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;

import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;

/** A shard whose database goes away is reported by name, and units on the other shards keep working. */
class ShardDownTest {

    @Test
    void aDownShardIsNamedAndTheOtherShardsKeepWorking() throws SQLException {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 1)) {
            String remoteUrl = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:down_" + System.nanoTime()
                    + ";DB_CLOSE_DELAY=-1";
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .shard("s0", dbs.shards().get(0).url())
                    .shard("s1", remoteUrl)
                    .virtualShards(16)
                    .catalog(dbs.catalogUrl())
                    .connectionTimeoutMillis(500)
                    .schemaAction("create");
            try (ShardedSessionFactory shards = builder.build()) {
                long onS0 = keyOn(shards, "s0");
                long onS1 = keyOn(shards, "s1");
                shards.persist(new User(onS1, "before the outage"));

                server.stop();

                assertThatThrownBy(() -> shards.persist(new User(onS1 + 1000 * 16, "during the outage")))
                        .isInstanceOf(ShardUnavailableException.class)
                        .hasMessageContaining("Shard 's1'")
                        .hasMessageContaining("is unavailable");
                assertThatThrownBy(() -> shards.find(User.class, onS1))
                        .isInstanceOf(ShardUnavailableException.class)
                        .hasMessageContaining("Shard 's1'");
                shards.persist(new User(onS0, "unaffected"));
                assertThat(shards.find(User.class, onS0).getEmail()).isEqualTo("unaffected");
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aReplicationWhoseCommitFailsOnOneShardNamesTheShardsThatDidAndDidNotApplyIt() throws SQLException {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 3)) {
            String remoteUrl = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:flaky_" + System.nanoTime()
                    + ";DB_CLOSE_DELAY=-1";
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .shard("s0", dbs.shards().get(0).url())
                    .shard("s1", remoteUrl)
                    .shard("s2", dbs.shards().get(2).url())
                    .virtualShards(16)
                    .catalog(dbs.catalogUrl())
                    .connectionTimeoutMillis(500)
                    .schemaAction("create");
            try (ShardedSessionFactory shards = builder.build()) {
                // Every shard runs and flushes the write; s1's database goes away before the commits start.
                assertThatThrownBy(() -> shards.replicate(session -> {
                    session.persist(new Country("NO", "Norway"));
                    if (ShardId.of("s2").equals(session.getTenantIdentifierValue())) {
                        session.flush();
                        server.stop();
                    }
                })).isInstanceOfSatisfying(ReferenceDataWriteException.class, e -> {
                    assertThat(e.appliedOn()).containsExactly(ShardId.of("s0"));
                    assertThat(e.failedOn()).containsOnlyKeys(ShardId.of("s1"), ShardId.of("s2"));
                    assertThat(e.failedOn().get(ShardId.of("s2"))).contains("not committed");
                }).hasMessageContaining("The shards now differ; retry the write on [s1, s2]");
                try (var session = shards.openReadOnlySession(ShardId.of("s0"))) {
                    assertThat(session.find(Country.class, "NO")).isNotNull();
                }
                try (var session = shards.openReadOnlySession(ShardId.of("s2"))) {
                    assertThat(session.find(Country.class, "NO")).isNull();
                }
            }
        } finally {
            server.stop();
        }
    }

    private static long keyOn(ShardedSessionFactory shards, String shard) {
        for (long key = 1; ; key++) {
            if (shards.shardFor(User.class, key).orElseThrow().name().equals(shard)) {
                return key;
            }
        }
    }
}
