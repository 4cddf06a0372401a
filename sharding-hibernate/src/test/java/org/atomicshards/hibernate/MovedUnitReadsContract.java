package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;

import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A unit that moved is found by every read through a session, on an instance whose map is stale (it refreshes every
 * ten minutes) as well as on one whose map is current: a session opened for the unit's key reaches the shard that
 * holds it, and a read by id or a query on a shard that gave the unit away fails with the retryable
 * {@link ShardMovingException} instead of answering that the unit does not exist.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MovedUnitReadsContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final int TEN_MINUTES = 600_000;

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 2);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @Test
    void aStaleInstanceFindsAMovedUnitThroughASessionOpenedForItsKey() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, TEN_MINUTES).build()) {
            long key = Fixtures.keyOn(mover, S0, 1_000_000);
            mover.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());
            assertThat(stale.shardFor(User.class, key)).as("the stale map").contains(S0);

            try (Session session = stale.openSession(User.class, key)) {
                assertThat(session.find(User.class, key)).as("found on its new shard").isNotNull()
                        .extracting(User::getEmail).isEqualTo("moved");
            }
            assertThat(stale.shardFor(User.class, key)).as("the map refreshed").contains(S1);
        }
    }

    /**
     * A session opened for a unit (on a connection without a write lease, which would hold the move off) whose unit
     * then moves: its queries (HQL, native) on the shard that gave the unit away fail with the retryable {@link ShardMovingException} instead of answering without the unit's rows; a
     * session opened again for the key finds them.
     */
    @Test
    void aQueryInASessionOpenedForAUnitThatMovedAwayFailsInsteadOfAnsweringNothing() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             // without write leases: a leased connection would hold the move off until the session ends
             ShardedSessionFactory reader = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, TEN_MINUTES)
                     .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build()) {
            long key = Fixtures.keyOn(mover, S0, 3_000_000);
            mover.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
            try (Session session = reader.openSession(User.class, key)) {
                String query = "select u.email from User u where u.id = :id";
                assertThat(session.createQuery(query, String.class).setParameter("id", key).getResultList())
                        .containsExactly("moved");
                mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());

                assertThatThrownBy(() -> session.createQuery(query, String.class).setParameter("id", key)
                        .getResultList()).isInstanceOf(ShardMovingException.class);
                assertThatThrownBy(() -> session.createNativeQuery("select email from app_user where id = :id",
                        String.class).setParameter("id", key).getResultList()).isInstanceOf(ShardMovingException.class);
            }
            try (Session session = reader.openSession(User.class, key)) {
                assertThat(session.createQuery("select u.email from User u where u.id = :id", String.class)
                        .setParameter("id", key).getResultList()).containsExactly("moved");
            }
        }
    }

    @Test
    void aReadByIdOnAShardThatGaveTheUnitAwayFailsInsteadOfAnsweringNothing() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, TEN_MINUTES).build()) {
            long key = Fixtures.keyOn(mover, S0, 2_000_000);
            mover.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
            ShardId routed = stale.shardFor(User.class, key).orElseThrow(); // as an application routes, then opens
            try (Session opened = stale.openSession(routed)) {
                mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());

                assertThatThrownBy(() -> opened.find(User.class, key)).isInstanceOf(ShardMovingException.class)
                        .hasMessageContaining("run it again");
            }
            ShardId again = stale.shardFor(User.class, key).orElseThrow();
            assertThat(again).as("the refusal refreshed the map").isEqualTo(S1);
            try (Session session = stale.openSession(again)) {
                assertThat(session.find(User.class, key)).isNotNull();
            }
        }
    }

    /**
     * An application routes a key with a stale map and opens a session on that shard: a query there, after the shard
     * gave the unit away, fails with the retryable {@link ShardMovingException} (the map refreshed) instead of
     * answering without the unit's rows; on an instance whose map is current, the same query answers.
     */
    @Test
    void aQueryOnAShardAStaleMapNamesFailsInsteadOfAnsweringNothing() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, TEN_MINUTES).build()) {
            long key = Fixtures.keyOn(mover, S0, 4_000_000);
            mover.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
            String query = "select u.email from User u where u.id = :id";
            assertThat(stale.shardFor(User.class, key)).contains(S0); // the stale instance's map, read before the move
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());

            ShardId routed = stale.shardFor(User.class, key).orElseThrow();
            assertThat(routed).as("the stale map").isEqualTo(S0);
            try (Session session = stale.openSession(routed)) {
                assertThatThrownBy(() -> session.createQuery(query, String.class).setParameter("id", key)
                        .getResultList()).isInstanceOf(ShardMovingException.class).hasMessageContaining("run it again");
            }
            ShardId again = stale.shardFor(User.class, key).orElseThrow();
            assertThat(again).as("the refusal refreshed the map").isEqualTo(S1);
            try (Session session = stale.openSession(again)) {
                assertThat(session.createQuery(query, String.class).setParameter("id", key).getResultList())
                        .containsExactly("moved");
            }
            try (Session session = mover.openSession(S0)) {
                assertThat(session.createQuery(query, String.class).setParameter("id", key).getResultList())
                        .as("a current map's session on the shard the unit left answers").isEmpty();
            }
        }
    }

    @Test
    void aReadOfAUnitThatDoesNotExistStillAnswersNothing() {
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).build()) {
            long key = Fixtures.keyOn(shards, S0, 3_000_000);
            try (Session session = shards.openSession(User.class, key)) {
                assertThat(session.find(User.class, key)).isNull();
            }
            try (Session session = shards.openSession(S0)) {
                session.getTransaction().begin();
                assertThat(session.find(User.class, key)).isNull();
                session.getTransaction().commit();
            }
        }
    }
}
