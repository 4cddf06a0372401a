package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** LOOKUP, CONSISTENT_HASH and SNOWFLAKE policies end to end on three H2 shards. */
class PoliciesTest {

    /** Where the shards live; the {@code *IT} subclasses run the same tests on PostgreSQL and MariaDB. */
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(kind(), 3);
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    private ShardedSessionFactory boot(Policy policy) {
        return Fixtures.builderOnSharedCatalog(dbs, 30).policy(User.class, policy).build();
    }

    @Nested
    class Lookup {

        @Test
        void aPinnedUnitLivesWhereItWasPlacedAndAnUnplacedKeyIsRejected() {
            try (ShardedSessionFactory shards = boot(Policies.lookup())) {
                assertThat(shards.place(User.class, 42L, ShardId.of("s2"))).isEqualTo(ShardId.of("s2"));
                shards.persist(new User(42L, "pinned"));
                shards.persist(new Photo(42L, "blob://42"));
                assertThat(Fixtures.hasRow(dbs, "s2", "app_user", 42L)).isTrue();
                assertThat(Fixtures.rowsPerShard(dbs, "Photo")).containsEntry("s2", 1L);
                assertThat(shards.place(User.class, 42L, ShardId.of("s0"))).as("an existing placement is kept")
                        .isEqualTo(ShardId.of("s2"));

                assertThatThrownBy(() -> shards.inUnit(User.class, 43L, session -> session.persist(new User(43L, "x"))))
                        .isInstanceOf(UnroutableKeyException.class)
                        .hasMessageContaining("has no placement yet");
                assertThat(shards.find(User.class, 43L)).isNull();
            }
        }

        @Test
        void aRootPersistedInASessionOfAShardIsPlacedOnThatShard() {
            try (ShardedSessionFactory shards = boot(Policies.lookup())) {
                try (Session session = shards.openSession(ShardId.of("s1"))) {
                    session.beginTransaction();
                    session.persist(new User(7L, "seven"));
                    session.getTransaction().commit();
                }
                assertThat(shards.shardFor(User.class, 7L)).contains(ShardId.of("s1"));
                assertThat(shards.find(User.class, 7L).getEmail()).isEqualTo("seven");
            }
        }
    }

    @Nested
    class ConsistentHash {

        @Test
        void theRingIsRecordedInTheDirectorySoANewShardInTheTopologyMovesNoKey() {
            Map<Long, ShardId> before = new HashMap<>();
            try (ShardedSessionFactory shards = boot(Policies.consistentHash(150))) {
                for (long id = 0; id < 60; id++) {
                    shards.persist(new User(id, "u" + id));
                    before.put(id, shards.shardFor(User.class, id).orElseThrow());
                }
                assertThat(before.values()).containsOnly(ShardId.of("s0"), ShardId.of("s1"), ShardId.of("s2"));
            }
            try (ShardDatabases more = ShardDatabases.create(kind(), 1)) {
                ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(dbs, 30)
                        .policy(User.class, Policies.consistentHash(150))
                        .schemaAction("none")
                        .shard("s0", dbs.shards().get(0).url()).shard("s1", dbs.shards().get(1).url())
                        .shard("s2", dbs.shards().get(2).url()).shard("s3", more.shards().get(0).url());
                try (ShardedSessionFactory shards = builder.build()) {
                    before.forEach((id, shard) -> assertThat(shards.shardFor(User.class, id)).contains(shard));
                }
            }
        }
    }

    @Nested
    class Snowflake {

        @Test
        void generatedKeysEncodeTheirVirtualShardAndRouteAlone() {
            try (ShardedSessionFactory shards = boot(Policies.snowflake())) {
                Map<ShardId, Integer> perShard = new HashMap<>();
                for (int i = 0; i < 60; i++) {
                    User user = new User(null, "u" + i);
                    shards.persist(user);
                    ShardId owner = shards.directory().shardOf(SnowflakeLayout.virtualShardOf(user.getId()));
                    assertThat(shards.shardFor(User.class, user.getId())).contains(owner);
                    assertThat(Fixtures.hasRow(dbs, owner.name(), "app_user", user.getId())).isTrue();
                    perShard.merge(owner, 1, Integer::sum);
                }
                assertThat(perShard).containsOnlyKeys(ShardId.of("s0"), ShardId.of("s1"), ShardId.of("s2"));
            }
        }
    }
}
