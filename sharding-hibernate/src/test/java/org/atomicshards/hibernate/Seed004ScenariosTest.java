package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The three User / Status / Photo scenarios of seed 004 (section 5.1), each on two shards with two virtual shards
 * mapped 1:1 (virtual shard 0 on shard 0, virtual shard 1 on shard 1).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Seed004ScenariosTest {

    /** Where the shards live; the {@code *IT} subclasses run the same tests on PostgreSQL and MariaDB. */
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 2);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @AfterEach
    void close() {
        if (shards != null) {
            shards.close();
            shards = null;
        }
    }

    private ShardedSessionFactory boot(Policy policy) {
        shards = Fixtures.builder(dbs, 2).policy(User.class, policy).build();
        return shards;
    }

    @Nested
    class RoundRobinWithApplicationKeys {

        @Test
        void newUsersAlternateBetweenTheShardsAndTheirStatusesAndPhotosFollowThem() {
            boot(Policies.roundRobin().withAccess(Access.PARALLEL).withCombine(Combine.ALL));
            shards.persist(new User(1001L, "ann@example.com"));
            shards.persist(new User(2002L, "bob@example.com"));
            shards.inUnit(User.class, 1001L, session -> session.persist(new Status(session.getReference(User.class, 1001L), "hi")));
            shards.persist(new Photo(2002L, "blob://bob"));

            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", 1001L)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", 2002L)).isTrue();
            assertThat(Fixtures.rowsPerShard(dbs, "Status")).containsEntry("s0", 1L).containsEntry("s1", 0L);
            assertThat(Fixtures.rowsPerShard(dbs, "Photo")).containsEntry("s0", 0L).containsEntry("s1", 1L);
            assertThat(shards.directory().placementOf(User.class, 1001L)).contains(0);
            assertThat(shards.directory().placementOf(User.class, 2002L)).contains(1);
        }

        @Test
        void usersAreFoundByAttributeByAskingAllShardsInParallel() {
            boot(Policies.roundRobin().withAccess(Access.PARALLEL).withCombine(Combine.ALL));
            for (long id = 1; id <= 6; id++) {
                shards.persist(new User(id, (id % 2 == 0 ? "even" : "odd") + id + "@example.com"));
            }
            List<List<Long>> perShard = shards.askShards(User.class, session -> session
                    .createQuery("select u.id from User u where u.email like 'even%' order by u.id", Long.class)
                    .getResultList());
            List<Long> all = new ArrayList<>();
            perShard.forEach(all::addAll);
            assertThat(all).containsExactlyInAnyOrder(2L, 4L, 6L);
        }

        @Test
        void aMemberOfAUserThatWasNeverPlacedIsRejected() {
            boot(Policies.roundRobin());
            assertThatThrownBy(() -> shards.persist(new Photo(77L, "blob://nobody")))
                    .isInstanceOf(UnroutableKeyException.class)
                    .hasMessageContaining("persist the User first");
            assertThat(Fixtures.totalRows(dbs, "Photo")).isZero();
        }
    }

    @Nested
    class IdHashWithLibraryKeys {

        @Test
        void theFirstTwoGeneratedIdsAreZeroAndOneAndLandOnShardsZeroAndOne() {
            boot(Policies.modulo().withKeyGeneration(KeyGeneration.SEQUENCE));
            User first = new User(null, "first@example.com");
            User second = new User(null, "second@example.com");
            shards.persist(first);
            shards.persist(second);

            assertThat(first.getId()).isZero();
            assertThat(second.getId()).isEqualTo(1L);
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", 0L)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", 1L)).isTrue();
            assertThat(shards.find(User.class, 1L).getEmail()).isEqualTo("second@example.com");
        }
    }

    @Nested
    class RangeWithLibraryKeys {

        @Test
        void twoHundredUsersSplitOneHundredOnEachShard() {
            boot(Policies.range(KeyRange.of(0, 99, 0), KeyRange.of(100, 199, 1))
                    .withKeyGeneration(KeyGeneration.SEQUENCE));
            for (int i = 0; i < 200; i++) {
                shards.persist(new User(null, "user" + i + "@example.com"));
            }
            assertThat(Fixtures.rowsPerShard(dbs, "app_user")).containsEntry("s0", 100L).containsEntry("s1", 100L);
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", 99L)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", 100L)).isTrue();
            assertThat(shards.router().routingOf(User.class).orElseThrow().shardsForRange(50L, true, 150L, true))
                    .containsExactly(ShardId.of("s0"), ShardId.of("s1"));
            assertThat(shards.router().routingOf(User.class).orElseThrow().shardsForRange(120L, true, null, false))
                    .containsExactly(ShardId.of("s1"));
        }

        @Test
        void aKeyOutsideEveryRangeIsRejectedBeforeAnythingIsWritten() {
            boot(Policies.range(KeyRange.of(0, 99, 0), KeyRange.of(100, 199, 1)));
            assertThatThrownBy(() -> shards.persist(new User(200L, "late@example.com")))
                    .isInstanceOf(UnroutableKeyException.class)
                    .hasMessageContaining("Key 200")
                    .hasMessageContaining("outside every configured range");
            assertThat(Fixtures.totalRows(dbs, "app_user")).isZero();
            assertThat(shards.router().routingOf(User.class).orElseThrow().shardsForKey(200L)).isEmpty();
            assertThat(shards.router().routingOf(User.class).orElseThrow().shardsForKey(150)).containsExactly(ShardId.of("s1"));
            assertThatThrownBy(() -> shards.router().routingOf(User.class).orElseThrow().shardsForKey("150"))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
