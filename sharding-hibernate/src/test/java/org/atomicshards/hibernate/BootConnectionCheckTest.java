package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Decision 8: an unreachable shard fails the boot, naming it; the check can be turned off. */
class BootConnectionCheckTest {

    private ShardDatabases dbs;
    private String downUrl;

    @BeforeEach
    void databases() throws SQLException {
        dbs = ShardDatabases.create(DatabaseKind.H2, 3);
        Server server = Server.createTcpServer("-tcpPort", "0").start();
        int port = server.getPort();
        server.stop();
        downUrl = "jdbc:h2:tcp://127.0.0.1:" + port + "/mem:down;PASSWORD=hunter2secret";
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    /** s2 is up; the down URL is used with a password, which must never show in a message. */
    private ShardedSessionFactoryBuilder threeShards(String firstShardUrl, String secondShardUrl) {
        boolean s1Down = secondShardUrl.equals(downUrl);
        return AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", firstShardUrl)
                .shard("s1", secondShardUrl, s1Down ? "app" : null, s1Down ? "hunter2secret" : null)
                .shard("s2", dbs.shards().get(2).url())
                .virtualShards(16)
                .connectionTimeoutMillis(500)
                .catalog(dbs.newCatalogUrl());
    }

    @Nested
    class On {

        @Test
        void aDownShardOtherThanTheFirstFailsTheBootNamingItAndTheFix() {
            assertThatThrownBy(() -> threeShards(dbs.shards().get(0).url(), downUrl).build())
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Shard 's1' (jdbc:h2:tcp://127.0.0.1:")
                    .hasMessageContaining("is unavailable at boot")
                    .hasMessageContaining("Fix: start its database or correct atomicshards.shard.s1.url")
                    .hasMessageContaining("atomicshards.boot_connection_check=false")
                    .hasMessageNotContaining("hunter2secret")
                    .hasMessageNotContaining("not affected");
        }

        @Test
        void allShardsUpBootsWithoutStartingThePools() {
            try (ShardedSessionFactory shards = threeShards(dbs.shards().get(0).url(), dbs.shards().get(1).url())
                    .property(ShardingSettings.BOOT_CONNECTION_CHECK, "true").build()) {
                assertThat(shards.shards()).hasSize(3);
            }
        }
    }

    @Nested
    class Off {

        @Test
        void aDownShardIsFoundAtFirstUseAndTheOtherShardsWork() {
            try (ShardedSessionFactory schema = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .shard("s0", dbs.shards().get(0).url())
                    .shard("s2", dbs.shards().get(2).url())
                    .catalog(dbs.newCatalogUrl())
                    .schemaAction("create").build()) {
                assertThat(schema.shards()).hasSize(2);
            }
            try (ShardedSessionFactory shards = threeShards(dbs.shards().get(0).url(), downUrl)
                    .property(ShardingSettings.BOOT_CONNECTION_CHECK, "false").build()) {
                long onS0 = keyOn(shards, "s0");
                long onS1 = keyOn(shards, "s1");
                long onS2 = keyOn(shards, "s2");
                shards.persist(new User(onS0, "on s0"));
                shards.persist(new User(onS2, "on s2"));
                assertThat(shards.find(User.class, onS0).getEmail()).isEqualTo("on s0");
                assertThat(shards.find(User.class, onS2).getEmail()).isEqualTo("on s2");
                assertThatThrownBy(() -> shards.persist(new User(onS1, "on s1")))
                        .isInstanceOf(ShardUnavailableException.class)
                        .hasMessageContaining("Shard 's1'")
                        .hasMessageContaining("Units of work on other shards are not affected")
                        .hasMessageNotContaining("hunter2secret");
            }
        }

        @Test
        void aDownFirstShardFailsTheBootWithoutClaimingOtherShardsAreUnaffected() {
            assertThatThrownBy(() -> threeShards(downUrl, dbs.shards().get(1).url())
                    .property(ShardingSettings.BOOT_CONNECTION_CHECK, "false").build())
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Shard 's0'")
                    .hasMessageContaining("The session factory cannot boot without it. Fix: start its database")
                    .hasMessageNotContaining("hunter2secret")
                    .hasMessageNotContaining("not affected");
        }
    }

    @Test
    void aValueOtherThanTrueOrFalseFailsNamingTheSetting() {
        assertThatThrownBy(() -> threeShards(dbs.shards().get(0).url(), dbs.shards().get(1).url())
                .property(ShardingSettings.BOOT_CONNECTION_CHECK, "yes").build())
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.boot_connection_check' has value 'yes'. Fix: use true or false");
    }

    private static long keyOn(ShardedSessionFactory shards, String shard) {
        for (long key = 1; ; key++) {
            if (shards.shardFor(User.class, key).orElseThrow().name().equals(shard)) {
                return key;
            }
        }
    }
}
