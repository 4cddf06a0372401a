package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Writes the factory does not run itself (a session the application opened, as Spring's transactions do) pass the
 * ownership fence too, at flush, on every database: refused on a shard that gave the unit away or is handing it over,
 * logged and carried over while the unit is copied. So is a unit of work's write to another unit than its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WriteFenceContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

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

    @AfterEach
    void removeFaults() {
        MoveFaults.install(null);
    }

    @Test
    void aStaleInstancesApplicationSessionCannotWriteToTheShardThatGaveTheUnitAway() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            long moved = keyOn(mover, S0, 1_000_000);
            long sibling = sameVirtualShard(mover, moved);
            mover.inUnit(User.class, moved, session -> session.persist(new User(moved, "moved")));
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, moved)), S1, MoveOptions.defaults());
            int before = stale.directory().version();

            ShardId routed = stale.shardFor(User.class, sibling).orElseThrow(); // the application routes, then opens
            assertThat(routed).isEqualTo(S0);
            assertThatThrownBy(() -> writeInOwnTransaction(stale.openSession(routed),
                    session -> session.persist(new User(sibling, "stale"))))
                    .isInstanceOf(ShardMovingException.class)
                    .hasMessageContaining("no longer owns it");
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", sibling)).isFalse();
            assertThat(stale.directory().version()).as("the refusal refreshed the map").isGreaterThan(before);

            writeInOwnTransaction(stale.openSession(User.class, sibling),
                    session -> session.persist(new User(sibling, "retried")));
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", sibling)).isTrue();
        }
    }

    @Test
    void aStaleInstancesSessionOpenedForAKeyWritesOnTheShardThatHoldsItNow() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, 600_000).build()) {
            long moved = keyOn(mover, S0, 5_000_000);
            long sibling = sameVirtualShard(mover, moved);
            mover.inUnit(User.class, moved, session -> session.persist(new User(moved, "moved")));
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, moved)), S1, MoveOptions.defaults());
            assertThat(stale.shardFor(User.class, sibling)).as("the stale map").contains(S0);

            writeInOwnTransaction(stale.openSession(User.class, sibling),
                    session -> session.persist(new User(sibling, "first try")));
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", sibling)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", sibling)).isFalse();
        }
    }

    @Test
    void aWriteToAVirtualShardBeingHandedOverIsRefusedAndTheTransactionCommitsNothing() throws SQLException {
        // the state is written by hand, without the arm an operation takes first: only fenced connections see it
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, VIRTUAL_SHARDS)
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build()) {
            long key = keyOn(shards, S0, 2_000_000);
            long other = keyOn(shards, S0, key + 1, Fixtures.virtualShardOf(shards, key));
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "frozen")));
            Fixtures.setOwnershipState(dbs, S0, Fixtures.virtualShardOf(shards, key), "FROZEN");
            try {
                assertThatThrownBy(() -> writeInOwnTransaction(shards.openSession(S0), session -> {
                    session.persist(new User(other, "other")); // another virtual shard: allowed on its own
                    User frozen = session.find(User.class, key);
                    session.persist(new Status(frozen, "while frozen"));
                })).isInstanceOf(ShardMovingException.class).hasMessageContaining("is handing it over");
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", other)).as("nothing committed").isFalse();
                assertThat(statuses(S0, key)).isZero();

                assertThatThrownBy(() -> shards.inUnit(User.class, other, session -> {
                    session.persist(new User(other, "other"));
                    session.persist(new Status(session.find(User.class, key), "from another unit of work"));
                })).as("a unit of work writing another unit's rows").isInstanceOf(ShardMovingException.class);
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", other)).isFalse();

                // a bulk or native write could touch any unit of the shard: refused while one is handed over
                assertThatThrownBy(() -> writeInOwnTransaction(shards.openSession(S0), session -> {
                    session.persist(new User(other, "other"));
                    session.createMutationQuery("update User u set u.email = :email where u.id = :id")
                            .setParameter("email", "bulk").setParameter("id", other).executeUpdate();
                })).isInstanceOf(ShardMovingException.class).hasMessageContaining("bulk or native write")
                        .hasMessageContaining("virtual shard " + Fixtures.virtualShardOf(shards, key));
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", other)).as("nothing committed").isFalse();
                assertThatThrownBy(() -> writeInOwnTransaction(shards.openSession(S0), session -> session
                        .createNativeMutationQuery("delete from app_user where id = :id").setParameter("id", key)
                        .executeUpdate())).isInstanceOf(ShardMovingException.class);
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("nothing deleted").isTrue();
            } finally {
                Fixtures.setOwnershipState(dbs, S0, Fixtures.virtualShardOf(shards, key), "OWNED");
            }
            writeInOwnTransaction(shards.openSession(S0),
                    session -> session.persist(new Status(session.find(User.class, key), "after")));
            assertThat(statuses(S0, key)).isEqualTo(1);
        }
    }

    @Test
    void writesAndDeletesInAnApplicationSessionWhileTheUnitIsCopiedReachTheTarget() throws Exception {
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).build()) {
            long key = keyOn(shards, S0, 3_000_000);
            shards.inUnit(User.class, key, session -> {
                User user = new User(key, "copied");
                session.persist(user);
                session.persist(new Status(user, "deleted while copied"));
            });
            CountDownLatch copying = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(1);
            MoveFaults.install(step -> {
                if (step.equals("mid-copy") && copying.getCount() > 0) {
                    copying.countDown();
                    await(written);
                }
            });
            CompletableFuture<?> move = CompletableFuture.runAsync(() -> shards.admin()
                    .move(Set.of(Fixtures.virtualShardOf(shards, key)), S1, MoveOptions.defaults()));
            assertThat(copying.await(30, TimeUnit.SECONDS)).isTrue();
            try {
                writeInOwnTransaction(shards.openSession(User.class, key), session -> {
                    User user = session.find(User.class, key);
                    user.setEmail("written while copied");
                    session.createSelectionQuery("from Status where user.id = :id", Status.class)
                            .setParameter("id", key).getResultList().forEach(session::remove);
                    session.persist(new Status(user, "added while copied"));
                });
                assertThat(loggedChanges(S0, key)).as("the write was logged for the catch-up").isPositive();
            } finally {
                written.countDown();
            }
            move.get(60, TimeUnit.SECONDS);

            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
            assertThat(shards.find(User.class, key).getEmail()).isEqualTo("written while copied");
            assertThat(statusTexts(S1, key)).containsExactly("added while copied");
        }
    }

    /**
     * Ways an application writes two units of one virtual shard in one transaction on a session it opened on the shard
     * (as Spring's {@code @Transactional} services and repositories do), each given the two keys and the new email.
     */
    private Stream<Arguments> writePaths() {
        Work2 entities = (session, keys, email) -> keys.forEach(key -> session.find(User.class, key).setEmail(email));
        Work2 bulk = (session, keys, email) -> keys.forEach(key -> session
                .createMutationQuery("update User u set u.email = :email where u.id = :id")
                .setParameter("email", email).setParameter("id", key).executeUpdate());
        Work2 bulkInOne = (session, keys, email) -> session
                .createMutationQuery("update User u set u.email = :email where u.id in :ids")
                .setParameter("email", email).setParameter("ids", keys).executeUpdate();
        Work2 nativeSql = (session, keys, email) -> keys.forEach(key -> session
                .createNativeMutationQuery("update app_user set email = :email where id = :id")
                .setParameter("email", email).setParameter("id", key).executeUpdate());
        return Stream.of(Arguments.of("entity updates", entities), Arguments.of("bulk HQL updates", bulk),
                Arguments.of("one bulk HQL update of both", bulkInOne), Arguments.of("native SQL updates", nativeSql));
    }

    /**
     * Every unit a transaction writes while its virtual shard is copied reaches the target, however the write was made:
     * not only the first unit of that virtual shard the transaction writes. The writes come after the move compared the
     * whole batch, so only the change log brings them over.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("writePaths")
    void everyUnitATransactionWritesWhileItsVirtualShardMovesReachesTheTarget(String path, Work2 write)
            throws Exception {
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).build()) {
            long first = keyOn(shards, S0, 4_000_000);
            long second = sameVirtualShard(shards, first);
            List<Long> keys = List.of(first, second);
            keys.forEach(key -> shards.inUnit(User.class, key, session -> session.persist(new User(key, "before"))));
            CountDownLatch verified = new CountDownLatch(1);
            CountDownLatch written = new CountDownLatch(1);
            MoveFaults.install(step -> {
                if (step.equals("after-verify") && verified.getCount() > 0) {
                    verified.countDown();
                    await(written);
                }
            });
            CompletableFuture<?> move = CompletableFuture.runAsync(() -> shards.admin()
                    .move(Set.of(Fixtures.virtualShardOf(shards, first)), S1, MoveOptions.defaults()));
            assertThat(verified.await(30, TimeUnit.SECONDS)).isTrue();
            try {
                writeInOwnTransaction(shards.openSession(S0), session -> write.accept(session, keys, "after"));
            } finally {
                written.countDown();
            }
            move.get(60, TimeUnit.SECONDS);

            for (long key : keys) {
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
                assertThat(shards.find(User.class, key).getEmail()).as(path + ", user " + key).isEqualTo("after");
            }
        }
    }

    /**
     * A bulk or native write outside a transaction (where Hibernate is told to allow one) on a connection without a
     * write lease could not hold its fence until it commits: it is refused, nothing written.
     */
    @Test
    void aBulkWriteOutsideATransactionOnAFencedConnectionIsRefused() {
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, VIRTUAL_SHARDS)
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false")
                .property("hibernate.allow_update_outside_transaction", "true").build()) {
            long key = keyOn(shards, S0, 6_000_000);
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "before")));
            try (Session session = shards.openSession(S0)) {
                assertThatThrownBy(() -> session.createNativeMutationQuery(
                        "update app_user set email = :email where id = :id")
                        .setParameter("email", "outside").setParameter("id", key).executeUpdate())
                        .isInstanceOf(ShardMovingException.class).hasMessageContaining("outside a transaction");
            }
            assertThat(shards.find(User.class, key).getEmail()).isEqualTo("before");
        }
    }

    private interface Work2 {
        void accept(Session session, List<Long> keys, String email);
    }

    private interface Work {
        void accept(Session session);
    }

    /**
     * Instances that start at the same moment against shards no instance has used prepare each shard's fence together:
     * every one of them writes. On MariaDB two first initialisations read the missing fence row "for update" and
     * deadlock on each other's gap lock; the loser reads what the winner wrote instead of failing its unit of work.
     */
    @Test
    void instancesPreparingAFreshShardsFenceAtTheSameMomentAllWrite() throws Exception {
        int instances = 4;
        ExecutorService threads = Executors.newFixedThreadPool(instances);
        try {
            prepareAtTheSameMoment(instances, threads);
        } finally {
            threads.shutdownNow();
        }
    }

    private void prepareAtTheSameMoment(int instances, Executor threads) throws Exception {
        for (int round = 0; round < 3; round++) {
            try (ShardDatabases fresh = ShardDatabases.create(kind(), 2)) {
                String catalog = fresh.newCatalogUrl();
                List<ShardedSessionFactory> factories = new ArrayList<>();
                // no topology refresh: nothing prepares a fence in the background before the instances write
                try (ShardedSessionFactory first = Fixtures.builderOnSharedCatalog(fresh, VIRTUAL_SHARDS)
                        .catalog(catalog).property(ShardingSettings.CATALOG_REFRESH_INTERVAL, 0).build()) {
                    long base = 1_000_000L * (round + 1);
                    CyclicBarrier start = new CyclicBarrier(instances);
                    List<CompletableFuture<Long>> writes = new ArrayList<>();
                    for (int i = 0; i < instances; i++) {
                        ShardedSessionFactory instance = i == 0 ? first
                                : Fixtures.anotherInstance(fresh, VIRTUAL_SHARDS, catalog)
                                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, 0).build();
                        if (i > 0) {
                            factories.add(instance);
                        }
                        long key = keyOn(first, S0, base + 1000L * i);
                        writes.add(CompletableFuture.supplyAsync(() -> {
                            awaitBarrier(start);
                            instance.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key)));
                            return key;
                        }, threads));
                    }
                    for (CompletableFuture<Long> write : writes) {
                        long key = write.get(60, TimeUnit.SECONDS);
                        assertThat(Fixtures.hasRow(fresh, "s0", "app_user", key)).as("user " + key).isTrue();
                    }
                } finally {
                    factories.forEach(ShardedSessionFactory::close);
                }
            }
        }
    }

    private static void awaitBarrier(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("The instances did not all start", e);
        }
    }

    /** What an application (or Spring) does with a session it opened: begin, work, commit, close. */
    private static void writeInOwnTransaction(Session session, Work work) {
        try (session) {
            session.getTransaction().begin();
            try {
                work.accept(session);
                session.getTransaction().commit();
            } catch (RuntimeException e) {
                if (session.getTransaction().isActive()) {
                    session.getTransaction().rollback();
                }
                throw e;
            }
        }
    }


    private long loggedChanges(ShardId shard, long key) throws SQLException {
        try (Connection c = dbs.connect(shard.name());
             PreparedStatement ps = c.prepareStatement("select count(*) from as_moved_change where unit_key = ?")) {
            ps.setString(1, Long.toString(key));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long statuses(ShardId shard, long user) throws SQLException {
        return statusTexts(shard, user).size();
    }

    private java.util.List<String> statusTexts(ShardId shard, long user) throws SQLException {
        java.util.List<String> texts = new java.util.ArrayList<>();
        try (Connection c = dbs.connect(shard.name());
             PreparedStatement ps = c.prepareStatement("select text from Status where user_id = ?")) {
            ps.setLong(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    texts.add(rs.getString(1));
                }
            }
        }
        return texts;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long keyOn(ShardedSessionFactory factory, ShardId shard, long from) {
        return keyOn(factory, shard, from, -1);
    }

    /** The first key from {@code from} on {@code shard} whose virtual shard is not {@code notVirtualShard}. */
    private static long keyOn(ShardedSessionFactory factory, ShardId shard, long from, int notVirtualShard) {
        for (long key = from; ; key++) {
            if (factory.shardFor(User.class, key).orElseThrow().equals(shard)
                    && Fixtures.virtualShardOf(factory, key) != notVirtualShard) {
                return key;
            }
        }
    }

    private static long sameVirtualShard(ShardedSessionFactory factory, long key) {
        for (long other = key + 1; ; other++) {
            if (Fixtures.virtualShardOf(factory, other) == Fixtures.virtualShardOf(factory, key)) {
                return other;
            }
        }
    }

}
