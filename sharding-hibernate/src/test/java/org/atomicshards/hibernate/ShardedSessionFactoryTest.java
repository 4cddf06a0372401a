package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Routing, guards and reference data on four embedded H2 shards with the seed's User / Status / Photo model. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedSessionFactoryTest {

    /** Where the shards live; the {@code *IT} subclasses run the same tests on PostgreSQL and MariaDB. */
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 4);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    /** Each test boots on empty tables (schema action create) and a new catalog. */
    @BeforeEach
    void boot() {
        shards = Fixtures.builder(dbs, 64).build();
    }

    @AfterEach
    void shutDown() {
        shards.close();
    }

    /** Two keys owned by different shards. */
    private long[] keysOnDifferentShards() {
        ShardId first = shards.shardFor(User.class, 1L).orElseThrow();
        for (long key = 2; ; key++) {
            if (!shards.shardFor(User.class, key).orElseThrow().equals(first)) {
                return new long[] {1L, key};
            }
        }
    }

    @Nested
    class PersistAndFind {

        @Test
        void everyUserLandsOnlyOnTheShardThatOwnsItsKey() {
            for (long id = 0; id < 200; id++) {
                shards.persist(new User(id, "user" + id + "@example.com"));
            }
            Map<String, Set<Long>> usersOn = new HashMap<>();
            for (ShardId shard : shards.shards()) {
                usersOn.put(shard.name(), Fixtures.ids(dbs, shard.name(), "app_user"));
            }
            for (long id = 0; id < 200; id++) {
                String owner = shards.shardFor(User.class, id).orElseThrow().name();
                for (ShardId shard : shards.shards()) {
                    assertThat(usersOn.get(shard.name()).contains(id))
                            .as("user %s on %s (owner %s)", id, shard, owner).isEqualTo(shard.name().equals(owner));
                }
            }
            assertThat(Fixtures.rowsPerShard(dbs, "app_user").values()).allSatisfy(rows -> assertThat(rows).isPositive());
        }

        @Test
        void findByKeyReadsTheOwningShardAndMissingKeysGiveNull() {
            shards.persist(new User(42L, "a@example.com"));
            assertThat(shards.find(User.class, 42L).getEmail()).isEqualTo("a@example.com");
            assertThat(shards.find(User.class, 43L)).isNull();
        }

        @Test
        void membersFollowTheirRootAndAreFoundByIdOrByAskingShards() {
            shards.persist(new User(7L, "u7@example.com"));
            UUID statusId = shards.callInUnit(User.class, 7L, session -> {
                Status status = new Status(session.getReference(User.class, 7L), "hello");
                session.persist(status);
                return status.getId();
            });
            Photo photo = new Photo(7L, "blob://7");
            shards.persist(photo);
            String owner = shards.shardFor(User.class, 7L).orElseThrow().name();

            assertThat(Fixtures.hasRow(dbs, owner, "Status", statusId)).isTrue();
            assertThat(Fixtures.hasRow(dbs, owner, "Photo", photo.getId())).isTrue();
            assertThat(Fixtures.totalRows(dbs, "Status")).isEqualTo(1);
            assertThat(shards.directory().shardOf(SnowflakeLayout.virtualShardOf(photo.getId())).name()).isEqualTo(owner);
            assertThat(shards.find(Photo.class, photo.getId()).getBlobUrl()).isEqualTo("blob://7");
            assertThat(shards.find(Status.class, statusId).getText()).isEqualTo("hello");
            assertThat(shards.find(Status.class, UUID.randomUUID())).isNull();
        }

        @Test
        void askShardsCombinesTheAnswersOfEveryShard() {
            for (long id = 0; id < 40; id++) {
                shards.persist(new User(id, "u" + id));
            }
            List<Long> counts = shards.askShards(User.class,
                    session -> session.createQuery("select count(u) from User u", Long.class).getSingleResult());
            assertThat(counts).hasSize(1); // combine FIRST under the default policy
            assertThat(counts.get(0)).isEqualTo(Fixtures.rowsPerShard(dbs, "app_user").get("s0"));
        }

        @Test
        void aUnitOfWorkFlushesOnceAndCommitsWhatItFlushed() {
            shards.close();
            shards = Fixtures.builder(dbs, 64).property("hibernate.generate_statistics", "true").build();
            shards.persist(new User(11L, "before@example.com"));
            var statistics = shards.sessionFactory().getStatistics();
            statistics.clear();

            shards.inUnit(User.class, 11L, session -> {
                session.find(User.class, 11L).setEmail("after@example.com");
                session.persist(new Photo(11L, "blob://11"));
            });

            assertThat(statistics.getFlushCount()).as("flushes of one unit of work").isEqualTo(1);
            assertThat(statistics.getTransactionCount()).isEqualTo(1);
            assertThat(shards.find(User.class, 11L).getEmail()).isEqualTo("after@example.com");
            assertThat(Fixtures.totalRows(dbs, "Photo")).isEqualTo(1);
        }

        @Test
        void aUnitOfWorkOnAConnectionAFanOutReadWithIsStillOneTransaction() {
            shards.close();
            // one connection per shard: the unit of work gets the connection the fan-out's shard statement ran on
            shards = Fixtures.builder(dbs, 64).property(ShardingSettings.POOL_SIZE, "1").build();
            for (long id = 0; id < 20; id++) {
                shards.persist(new User(id, "u" + id));
            }
            assertThat(shards.fanOut().createQuery("select u from User u order by u.id", User.class)
                    .setMaxResults(5).getResultList()).extracting(User::getId).containsExactly(0L, 1L, 2L, 3L, 4L);

            assertThatThrownBy(() -> shards.inUnit(User.class, 3L, session -> {
                session.persist(new Photo(3L, "blob://flushed-then-rolled-back"));
                session.flush();
                throw new IllegalStateException("the unit of work fails after its write");
            })).hasMessageContaining("the unit of work fails after its write");

            assertThat(Fixtures.totalRows(dbs, "Photo")).as("the failed unit's flushed write").isZero();
        }

        @Test
        void nestedUnitsOnTheSameShardJoinTheOuterOne() {
            shards.inUnit(User.class, 5L, outer -> {
                outer.persist(new User(5L, "five"));
                shards.inUnit(User.class, 5L, inner -> assertThat(inner).isSameAs(outer));
                shards.persist(new Photo(5L, "blob://5"));
            });
            assertThat(Fixtures.totalRows(dbs, "Photo")).isEqualTo(1);
        }
    }

    @Nested
    class Guards {

        @Test
        void anEntityWhoseKeyBelongsToAnotherShardIsRejectedAndNothingIsWritten() {
            long[] keys = keysOnDifferentShards();
            ShardId first = shards.shardFor(User.class, keys[0]).orElseThrow();
            assertThatThrownBy(() -> shards.inUnit(User.class, keys[0], session -> {
                session.persist(new User(keys[0], "mine"));
                session.persist(new User(keys[1], "not mine"));
            })).isInstanceOf(WrongShardException.class)
                    .hasMessageContaining("User#" + keys[1])
                    .hasMessageContaining("on shard '" + first + "'")
                    .hasMessageContaining("Nothing was written");
            assertThat(Fixtures.totalRows(dbs, "app_user")).isZero();
        }

        @Test
        void aSecondShardInsideOneUnitOfWorkIsRejectedAndNothingIsWritten() {
            long[] keys = keysOnDifferentShards();
            assertThatThrownBy(() -> shards.inUnit(User.class, keys[0], session -> {
                session.persist(new User(keys[0], "first"));
                shards.persist(new User(keys[1], "second"));
            })).isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("inside the unit of work bound to shard '"
                            + shards.shardFor(User.class, keys[0]).orElseThrow() + "'");
            assertThat(Fixtures.totalRows(dbs, "app_user")).isZero();
        }

        @Test
        void aChangedShardKeyColumnIsRejectedAtFlush() {
            shards.persist(new User(1L, "one"));
            Photo photo = new Photo(1L, "blob://1");
            shards.persist(photo);
            assertThatThrownBy(() -> shards.inUnit(User.class, 1L, session -> {
                session.find(Photo.class, photo.getId()).setUserId(2L);
                session.find(User.class, 1L).setEmail("changed");
            })).isInstanceOf(ShardKeyChangedException.class)
                    .hasMessageContaining("changed from 1 to 2")
                    .hasMessageContaining("'userId'");
            assertThat(shards.find(Photo.class, photo.getId()).getUserId()).isEqualTo(1L);
            assertThat(shards.find(User.class, 1L).getEmail()).isEqualTo("one");
        }

        @Test
        void aChangedShardKeyAssociationIsRejectedEvenWhenNotUpdatable() {
            shards.persist(new User(1L, "one"));
            shards.persist(new User(2L, "two"));
            UUID statusId = shards.callInUnit(User.class, 1L, session -> {
                Status status = new Status(session.find(User.class, 1L), "first");
                session.persist(status);
                return status.getId();
            });
            assertThatThrownBy(() -> shards.inUnit(User.class, 1L, session ->
                    session.find(Status.class, statusId).setUser(session.getReference(User.class, 2L))))
                    .isInstanceOf(ShardKeyChangedException.class)
                    .hasMessageContaining("'user.id'");
        }

        @Test
        void aNullKeyIsRejectedBeforeAnythingIsWritten() {
            assertThatThrownBy(() -> shards.persist(new Photo(null, "blob://none")))
                    .isInstanceOf(MissingShardKeyException.class);
            shards.persist(new User(1L, "one"));
            assertThatThrownBy(() -> shards.inUnit(User.class, 1L, session -> session.persist(new Photo(null, "x"))))
                    .isInstanceOf(MissingShardKeyException.class)
                    .hasMessageContaining("'userId' is null");
            assertThatThrownBy(() -> shards.inUnit(User.class, null, session -> { }))
                    .isInstanceOf(MissingShardKeyException.class);
            assertThat(Fixtures.totalRows(dbs, "Photo")).isZero();
        }

        @Test
        void anUnknownShardIsRejected() {
            assertThatThrownBy(() -> shards.openSession(ShardId.of("s9")))
                    .isInstanceOf(UnknownShardException.class)
                    .hasMessageContaining("Unknown shard 's9'")
                    .hasMessageContaining("[s0, s1, s2, s3]");
        }

        @Test
        void everySessionIsGuardedNotOnlyUnitsOfWork() {
            long[] keys = keysOnDifferentShards();
            ShardId first = shards.shardFor(User.class, keys[0]).orElseThrow();
            try (Session session = shards.openSession(first)) {
                session.beginTransaction();
                session.persist(new User(keys[1], "elsewhere"));
                assertThatThrownBy(session::flush).isInstanceOf(WrongShardException.class);
                session.getTransaction().rollback();
            }
            assertThat(Fixtures.totalRows(dbs, "app_user")).isZero();
        }

        @Test
        void referenceDataWrittenOnOneShardOnlyIsRejected() {
            shards.persist(new User(1L, "one"));
            assertThatThrownBy(() -> shards.inUnit(User.class, 1L, session -> session.persist(new Country("FR", "France"))))
                    .isInstanceOf(UnreplicatedReferenceDataWriteException.class)
                    .hasMessageContaining("replicate");
            assertThat(Fixtures.totalRows(dbs, "Country")).isZero();
        }
    }

    @Nested
    class ReferenceData {

        @Test
        void writesReachEveryShardAndReadsAreLocal() {
            shards.replicate(session -> session.persist(new Country("FR", "France")));
            shards.persist(new Country("DE", "Germany"));
            assertThat(Fixtures.rowsPerShard(dbs, "Country").values()).containsOnly(2L);
            shards.persist(new User(3L, "three"));
            String name = shards.callInUnit(User.class, 3L, session -> session.find(Country.class, "FR").getName());
            assertThat(name).isEqualTo("France");
            shards.replicate(session -> session.find(Country.class, "FR").setName("République française"));
            for (ShardId shard : shards.shards()) {
                try (Session session = shards.openReadOnlySession(shard)) {
                    assertThat(session.find(Country.class, "FR").getName()).isEqualTo("République française");
                }
            }
        }

        @Test
        void aFailureOnOneShardIsReportedWithTheShardsAndNothingDiverges() throws Exception {
            try (var c = dbs.connect("s2"); var ps = c.prepareStatement("insert into Country (code, name) values (?, ?)")) {
                ps.setString(1, "IT");
                ps.setString(2, "only on s2");
                ps.executeUpdate();
            }
            assertThatThrownBy(() -> shards.replicate(session -> session.persist(new Country("IT", "Italy"))))
                    .isInstanceOfSatisfying(ReferenceDataWriteException.class, e -> {
                        assertThat(e.appliedOn()).isEmpty();
                        assertThat(e.failedOn()).containsOnlyKeys(shards.shards());
                        assertThat(e.failedOn().get(ShardId.of("s1"))).contains("rolled back because shard 's2' failed");
                    })
                    .hasMessageContaining("applied on no shard");
            assertThat(Fixtures.rowsPerShard(dbs, "Country")).containsEntry("s0", 0L).containsEntry("s1", 0L)
                    .containsEntry("s2", 1L).containsEntry("s3", 0L);
        }
    }

    @Nested
    class Schema {

        @Test
        void validatePassesOnEveryShardAfterCreateAndNamesTheShardAfterADrop() throws Exception {
            shards.schema().validate();
            try (var c = dbs.connect("s3"); var s = c.createStatement()) {
                s.execute("drop table Photo");
            }
            assertThatThrownBy(() -> shards.schema().validate())
                    .isInstanceOf(ShardSchemaException.class)
                    .hasMessageContaining("shard 's3'");
            shards.schema().update();
            shards.schema().validate();
        }

        @Test
        void dropRemovesTheTablesOfEveryShardIncludingReferenceData() {
            shards.schema().drop();
            for (ShardId shard : shards.shards()) {
                assertThatThrownBy(() -> Fixtures.rowsPerShard(dbs, "Country")).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> Fixtures.hasRow(dbs, shard.name(), "app_user", 1L))
                        .isInstanceOf(IllegalStateException.class);
            }
            shards.schema().create();
            assertThat(Fixtures.totalRows(dbs, "Country")).isZero();
        }
    }

    @Test
    void snowflakeIdsAreUniqueAndEncodeTheUnitsVirtualShard() {
        Set<Long> ids = new HashSet<>();
        for (long user = 0; user < 8; user++) {
            shards.persist(new User(user, "u" + user));
            for (int i = 0; i < 20; i++) {
                Photo photo = new Photo(user, "blob");
                shards.persist(photo);
                ids.add(photo.getId());
                assertThat(shards.directory().shardOf(SnowflakeLayout.virtualShardOf(photo.getId())))
                        .isEqualTo(shards.shardFor(User.class, user).orElseThrow());
            }
        }
        assertThat(ids).hasSize(160);
    }
}
