package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ReshardingConflictException;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.User;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.testing.ChaosProxy;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Online moves of virtual shards, with the same contract on every database: concurrent writers lose nothing, every
 * unit ends whole on the shard the map names and nowhere else, a stale instance is fenced, a crash at any step is
 * resumed to completion, a second operation on the same virtual shards is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OnlineMoveContract {

    private static final int VIRTUAL_SHARDS = 16;

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;
    private SimpleMeterRegistry meters;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 2);
        acknowledged = new AcknowledgedUsers(dbs);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @BeforeEach
    void boot() {
        acknowledged.clear();
        meters = new SimpleMeterRegistry();
        shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).property(ShardingSettings.RESHARDING_WRITE_PAUSE, "3000")
                .meterRegistry(meters).build();
    }

    @AfterEach
    void shutDown() {
        MoveFaults.install(null);
        shards.close();
    }

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");

    private AcknowledgedUsers acknowledged;

    private void createUser(ShardedSessionFactory factory, long id) {
        acknowledged.create(factory, id);
    }

    private void updateUser(ShardedSessionFactory factory, long id, int n) {
        acknowledged.update(factory, id, n);
    }

    private void seed(int users) {
        for (long id = 0; id < users; id++) {
            createUser(shards, id);
        }
    }

    @Test
    void concurrentWritersLoseNothingAndFanOutCountsStayExact() throws Exception {
        seed(300);
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger retried = new AtomicInteger();
        AtomicInteger deadlocks = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        java.util.concurrent.atomic.AtomicLong usersStarted = new java.util.concurrent.atomic.AtomicLong(300);
        java.util.concurrent.atomic.AtomicLong usersAcknowledged = new java.util.concurrent.atomic.AtomicLong(300);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            writers.add(new Thread(() -> {
                long next = 100_000L * (thread + 1);
                List<Long> mine = new ArrayList<>();
                for (long id = thread; id < 300; id += 4) {
                    mine.add(id);
                }
                int n = 0;
                while (!stop.get()) {
                    try {
                        if (ThreadLocalRandom.current().nextBoolean()) {
                            usersStarted.incrementAndGet();
                            createUser(shards, next);
                            usersAcknowledged.incrementAndGet();
                            mine.add(next++);
                        } else {
                            updateUser(shards, mine.get(ThreadLocalRandom.current().nextInt(mine.size())), n++);
                        }
                        writes.incrementAndGet();
                    } catch (ShardMovingException e) {
                        retried.incrementAndGet();
                    } catch (jakarta.persistence.PessimisticLockException e) {
                        deadlocks.incrementAndGet(); // InnoDB's ordinary deadlock: not acknowledged, retryable
                    } catch (Throwable e) {
                        failures.add(e);
                        return;
                    }
                }
            }, "writer-" + t));
        }
        List<String> wrongCounts = new CopyOnWriteArrayList<>();
        AtomicInteger countsTaken = new AtomicInteger();
        AtomicInteger countsDuringMove = new AtomicInteger();
        AtomicBoolean moveDone = new AtomicBoolean();
        assertThat(shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                .isEqualTo(300L); // warms the fan-out up
        Thread counter = new Thread(() -> {
            while (!stop.get()) {
                try {
                    // a unit counted twice or missed would fall outside [acknowledged before, started after]
                    boolean duringMove = !moveDone.get();
                    long low = usersAcknowledged.get();
                    long users = shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
                    long high = usersStarted.get();
                    countsTaken.incrementAndGet();
                    if (duringMove) {
                        countsDuringMove.incrementAndGet();
                    }
                    if (users < low || users > high) {
                        wrongCounts.add(users + " not in [" + low + ", " + high + "]");
                    }
                } catch (Throwable e) {
                    failures.add(e);
                    return;
                }
            }
        }, "counter");
        writers.forEach(Thread::start);
        counter.start();
        Thread.sleep(200);
        Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(S0).subList(0, 4));
        MoveReport report = shards.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(2)
                .unitsPerChunk(10));
        moveDone.set(true);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (countsTaken.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Thread writer : writers) {
            writer.join(30_000);
        }
        counter.join(30_000);
        assertThat(failures).isEmpty();
        assertThat(wrongCounts).isEmpty();
        assertThat(countsTaken.get()).isGreaterThanOrEqualTo(3);
        assertThat(countsDuringMove.get()).isPositive();
        System.out.println("MOVE " + kind() + " | " + report.units() + " units, " + report.rows() + " rows in "
                + report.duration().toMillis() + " ms (" + Math.round(report.unitsPerSecond()) + " units/s), write "
                + "pauses " + report.writePauses().stream().map(Duration::toMillis).toList() + " ms, " + writes.get()
                + " writes during the run, " + retried.get() + " ShardMovingException, " + deadlocks.get()
                + " deadlocks, " + countsDuringMove.get()
                + " fan-out counts during the move");
        assertThat(report.units()).isGreaterThan(0);
        for (int bucket : moving) {
            assertThat(shards.directory().shardOf(bucket)).isEqualTo(S1);
        }
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
        assertThat(shards.admin().operations()).isEmpty();
    }

    @Test
    void aMoveWarnsOfTheTablesItCanOnlyScanToFindAUnitsRows() {
        long key = keyOn(shards, S0);
        createUser(shards, key);
        String logged;
        MoveReport report;
        try (LogCapture logs = new LogCapture()) {
            report = shards.admin().move(Set.of(Fixtures.virtualShardOf(shards, key)), S1, MoveOptions.defaults());
            logged = logs.all();
        }
        List<String> warnings = logged.lines().filter(line -> line.contains("no index leads with")).toList();
        assertThat(warnings).hasSize(1);
        assertThat(report.warnings()).singleElement().satisfies(warning -> assertThat(warnings.get(0))
                .contains(warning));
        // Photo's key is a plain column without an index; Status's is a foreign key, which PostgreSQL alone leaves
        // without one
        assertThat(warnings.get(0).toLowerCase(java.util.Locale.ROOT)).contains("on shard 's0'", "photo(user_id)")
                .doesNotContain("app_user(");
        if (kind() == DatabaseKind.POSTGRESQL) {
            assertThat(warnings.get(0).toLowerCase(java.util.Locale.ROOT)).contains("status(user_id)");
        } else {
            assertThat(warnings.get(0).toLowerCase(java.util.Locale.ROOT)).doesNotContain("status(");
        }
    }

    @Test
    void aStaleInstanceIsFencedRefreshesAndWritesToTheNewOwner() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            long key = keyOn(mover, S0);
            createUser(stale, key);
            int bucket = Fixtures.virtualShardOf(mover, key);
            int before = stale.directory().version();
            mover.admin().move(Set.of(bucket), S1, MoveOptions.defaults());
            assertThat(stale.directory().version()).isEqualTo(before); // it has not looked
            assertThat(stale.shardFor(User.class, key)).contains(S0);
            updateUser(stale, key, 1);
            assertThat(stale.directory().version()).isGreaterThan(before);
            assertThat(stale.find(User.class, key).getEmail()).isEqualTo("u" + key + "-1");
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
            assertEveryAcknowledgedWriteOnceOnItsShard(mover);
        }
    }

    @Test
    void aStaleInstanceReadsFromTheNewOwner() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            long key = keyOn(mover, S0);
            createUser(mover, key);
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());
            assertThat(stale.shardFor(User.class, key)).contains(S0);
            assertThat(stale.find(User.class, key)).isNotNull();
            assertThat(stale.shardFor(User.class, key)).contains(S1);
        }
    }

    /**
     * Between the promotion and the release the source still holds the moved rows, marked {@code SWITCHED}: an instance
     * on the old map, which routes there, must never read them once the target took a newer write (here the move
     * stops right after the promotion, so the window stays open).
     */
    @Test
    void aStaleInstanceNeverReadsTheSourcesOldRowsOnceTheTargetTookWrites() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build()) {
            long key = keyOn(mover, S0);
            long neighbour = key + 1;
            while (Fixtures.virtualShardOf(mover, neighbour) != Fixtures.virtualShardOf(mover, key)) {
                neighbour++;
            }
            long other = neighbour; // a second unit of the same virtual shard
            createUser(mover, key);
            createUser(mover, other);
            MoveFaults.install(at -> {
                if (at.equals("after-promote")) {
                    throw new IllegalStateException("injected crash at " + at);
                }
            });
            assertThatThrownBy(() -> mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1,
                    MoveOptions.defaults())).isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);
            updateUser(mover, key, 5); // on the target, while the source still has the old row
            updateUser(mover, other, 6);
            assertThat(stale.shardFor(User.class, key)).as("its map is old").contains(S0);

            assertThat(stale.find(User.class, key).getEmail()).as("a read by id").isEqualTo("u" + key + "-5");
            assertThat(stale.shardFor(User.class, key)).as("refreshed on the way").contains(S1);
            String inUnit = stale.callInUnit(User.class, other, session -> session.find(User.class, other).getEmail());
            assertThat(inUnit).as("a read in a unit of work").isEqualTo("u" + other + "-6");

            mover.admin().resume();
            assertEveryAcknowledgedWriteOnceOnItsShard(mover);
        }
    }

    @Test
    void aStaleInstancesFanOutsFindMovedUnitsOnceEach() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            for (long id = 0; id < 60; id++) {
                createUser(mover, id);
            }
            long key = keyOn(mover, S0);
            createUser(mover, key);
            assertThat(stale.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(61L);
            mover.admin().move(new TreeSet<>(mover.directory().virtualShardsOf(S0)), S1, MoveOptions.defaults());
            assertThat(stale.shardFor(User.class, key)).contains(S0); // its map is old
            // pruned to s0 by the old map, which no longer claims the unit: re-run on the refreshed map
            assertThat(stale.fanOut().createQuery("select u.email from User u where u.id = :id", String.class)
                    .setParameter("id", key).getResultList()).containsExactly("u" + key);
            assertThat(stale.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(61L);
            assertThat(stale.shardFor(User.class, key)).contains(S1);
        }
    }

    /**
     * A fan-out reads each shard's ownership epoch inside its own statement (or right after it, when the shard
     * returned no row), and trusts the claims it remembers only while that epoch is unchanged. Here the stale instance
     * remembers from earlier fan-outs that s0 claims every virtual shard; they then all move to s1. Trusting the
     * remembered claims, it would ask s0 alone and answer from its empty tables.
     */
    @Test
    void aStaleInstancesFanOutsNeverTrustClaimsRememberedFromBeforeAMove() {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build()) {
            for (long id = 0; id < 60; id++) {
                createUser(mover, id);
            }
            mover.admin().move(new TreeSet<>(mover.directory().virtualShardsOf(S1)), S0, MoveOptions.defaults());
            try (ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                    .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build()) {
                String count = "select count(u) from User u"; // a row from every shard: the epoch comes with it
                String page = "select u.id from User u where u.id >= :from order by u.id"; // none from an empty shard
                assertThat(stale.fanOut().createQuery(count, Long.class).getSingleResult()).isEqualTo(60L);
                assertThat(stale.fanOut().createQuery(page, Long.class).setParameter("from", 0L).getResultList())
                        .hasSize(60);

                mover.admin().move(new TreeSet<>(mover.directory().virtualShardsOf(S0)), S1, MoveOptions.defaults());
                assertThat(stale.shardFor(User.class, 0L)).as("its map is old").contains(S0);

                assertThat(stale.fanOut().createQuery(count, Long.class).getSingleResult()).isEqualTo(60L);
                assertThat(stale.shardFor(User.class, 0L)).as("refreshed by the fan-out").contains(S1);
            }
            try (ShardedSessionFactory stale = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                    .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build()) {
                String page = "select u.id from User u where u.id >= :from order by u.id";
                assertThat(stale.fanOut().createQuery(page, Long.class).setParameter("from", 0L).getResultList())
                        .hasSize(60);
                mover.admin().move(new TreeSet<>(mover.directory().virtualShardsOf(S1)), S0, MoveOptions.defaults());
                assertThat(stale.fanOut().createQuery(page, Long.class).setParameter("from", 0L).getResultList())
                        .hasSize(60).doesNotHaveDuplicates();
            }
        }
    }

    /**
     * The shards a fan-out asked must together claim every virtual shard the map gives them. Here the owner's claim on
     * one virtual shard is taken back behind the instance's back (its row {@code INCOMING}, as on a move's target
     * before its promotion) and given back 300 ms later: the fan-out runs again until then instead of answering
     * without that virtual shard.
     */
    @Test
    void aFanOutWaitsForAVirtualShardNoShardClaimsInsteadOfAnsweringWithoutIt() throws Exception {
        seed(60);
        String count = "select count(u) from User u";
        assertThat(shards.fanOut().createQuery(count, Long.class).getSingleResult()).isEqualTo(60L);
        int bucket = shards.directory().virtualShardsOf(S0).get(0);
        claim(S0, bucket, "INCOMING");
        long start = System.nanoTime();
        CompletableFuture<Void> giveBack = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(300);
                claim(S0, bucket, "OWNED");
            } catch (InterruptedException | SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            assertThat(shards.fanOut().createQuery(count, Long.class).getSingleResult()).isEqualTo(60L);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for the claim")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300));
        } finally {
            giveBack.join(); // a failure to give the claim back fails the test here
        }
    }

    /** Sets the shard's ownership row of {@code bucket} and raises its epoch, as the mover's transactions do. */
    private void claim(ShardId shard, int bucket, String state) throws SQLException {
        try (Connection c = dbs.connect(shard.name());
             PreparedStatement ownership = c.prepareStatement("update as_ownership set state = ? where bucket = ?");
             PreparedStatement epoch = c.prepareStatement("update as_fence set epoch = epoch + 1 where id = 1")) {
            ownership.setString(1, state);
            ownership.setInt(2, bucket);
            assertThat(ownership.executeUpdate()).isEqualTo(1);
            assertThat(epoch.executeUpdate()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"before-copy", "mid-copy", "after-copy", "after-verify", "after-switch", "after-promote",
            "mid-delete", "after-release"})
    void aCrashAtAnyStepIsResumedWithNothingLostOrDuplicated(String step) {
        seed(200);
        Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(S0).subList(0, 4));
        MoveFaults.install(at -> {
            if (at.equals(step)) {
                throw new IllegalStateException("injected crash at " + step);
            }
        });
        assertThatThrownBy(() -> shards.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(2)))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("injected crash at " + step);
        MoveFaults.install(null);
        assertThat(shards.admin().operations()).singleElement()
                .satisfies(op -> assertThat(op.owner()).as("released as the run stopped").isNull());
        // the application keeps working while the move waits for its resume: on the moving virtual shards too, but
        // between the switch (the point of no return) and the promotion, where writes wait for the resume, bounded by
        // the write pause
        boolean switched = step.equals("after-switch");
        boolean promoted = step.equals("after-promote") || step.equals("mid-delete") || step.equals("after-release");
        int waited = 0;
        for (long id = 0; id < 200; id += 7) {
            boolean onMoving = moving.contains(Fixtures.virtualShardOf(shards, id));
            if (switched && onMoving) {
                if (waited++ == 0) {
                    long id0 = id;
                    String operation = shards.admin().operations().get(0).id();
                    assertThatThrownBy(() -> updateUser(shards, id0, 1)).isInstanceOf(ShardMovingException.class)
                            .as("the stopped operation is named, with the fix")
                            .hasMessageContaining(operation).hasMessageContaining("ShardAdmin.resume()");
                }
                continue;
            }
            updateUser(shards, id, 1);
        }
        if (!switched && !promoted) {
            // after the switch the rows of record are in staging, after the promotion the source still has old rows
            assertEveryAcknowledgedWriteOnceOnItsShard(shards);
        }
        // fan-outs answer as one database would (from the source until the promotion); between the promotion and the
        // release both shards hold the batch, and a fan-out that keeps finding it claimed twice releases it itself
        String count = "select count(u) from User u";
        long start = System.nanoTime();
        assertThat(shards.fanOut().createQuery(count, Long.class).getSingleResult()).isEqualTo(200L);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("without running out its retries")
                .isLessThan(Duration.ofSeconds(5));
        List<MoveReport> resumed = shards.admin().resume();
        assertThat(resumed).hasSize(1);
        assertThat(shards.admin().operations()).isEmpty();
        for (int bucket : moving) {
            assertThat(shards.directory().shardOf(bucket)).isEqualTo(S1);
        }
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * The copy is verified twice: in full while writes go on, and under the freeze for the units copied since. A copy
     * that differs from the source is copied again; a unit written after the full verification is copied again and
     * verified under the freeze.
     */
    @Test
    void aCopyThatDiffersFromTheSourceIsCopiedAgainAndVerifiedBeforeTheSwitch() {
        seed(100);
        int moving = shards.directory().virtualShardsOf(S0).get(0);
        List<Long> onMoving = new ArrayList<>();
        for (long id = 0; id < 100 && onMoving.size() < 2; id++) {
            if (Fixtures.virtualShardOf(shards, id) == moving) {
                onMoving.add(id);
            }
        }
        assertThat(onMoving).hasSize(2);
        long damaged = onMoving.get(0);
        long writtenLate = onMoving.get(1);
        MoveFaults.install(at -> {
            if (at.equals("after-copy")) {
                try (Connection target = dbs.connect("s1");
                     PreparedStatement ps = target.prepareStatement(
                             "update as_in_app_user set email = ? where id = ?")) {
                    ps.setString(1, "damaged in the copy");
                    ps.setLong(2, damaged);
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }
            if (at.equals("after-verify")) {
                updateUser(shards, writtenLate, 9); // logged by the fence: copied again, verified under the freeze
            }
        });
        shards.admin().move(Set.of(moving), S1, MoveOptions.defaults());
        MoveFaults.install(null);
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S1);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * A virtual shard written without pause by eight writers, four per unit (each waits for the others' row lock while
     * it holds the fence), still freezes within the move's default freeze attempts: the writers' shared locks on its
     * ownership row do not starve the mover's updates (on PostgreSQL they did: a shared row lock is granted beside the
     * held ones even while an update waits), and the move carries every acknowledged write.
     */
    @Test
    void aVirtualShardWrittenWithoutPauseByEightWritersStillFreezes() throws Exception {
        seed(100);
        int moving = shards.directory().virtualShardsOf(S0).get(0);
        List<Long> hot = new ArrayList<>();
        for (long id = 0; id < 100; id++) {
            if (Fixtures.virtualShardOf(shards, id) == moving) {
                hot.add(id);
            }
        }
        assertThat(hot).hasSizeGreaterThanOrEqualTo(2);
        Map<Long, Set<String>> acknowledgedEmails = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            long id = hot.get(w % 2); // four writers per user: each waits for the others' row lock, holding the fence
            String writer = "w" + w + "-";
            writers.add(CompletableFuture.runAsync(() -> {
                for (int n = 0; !stop.get(); n++) {
                    String email = writer + n;
                    try {
                        shards.inUnit(User.class, id, session -> session.find(User.class, id).setEmail(email));
                        acknowledgedEmails.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(email);
                        writes.incrementAndGet();
                    } catch (ShardMovingException | jakarta.persistence.PessimisticLockException rolledBack) {
                        // not acknowledged (a move turned it away, or a deadlock between the writers rolled it back)
                    }
                }
            }));
        }
        try {
            Thread.sleep(500);
            int before = writes.get();
            MoveReport report = shards.admin().move(Set.of(moving), S1, MoveOptions.defaults());
            assertThat(report.writePauses()).hasSize(1);
            assertThat(writes.get()).as("writes during the move").isGreaterThan(before);
        } finally {
            stop.set(true);
            CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S1);
        for (long id : hot.subList(0, 2)) {
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", id)).isFalse();
            String email = shards.callInUnit(User.class, id, session -> session.find(User.class, id).getEmail());
            assertThat(acknowledgedEmails.get(id)).as("user " + id + " holds an acknowledged write").contains(email);
        }
    }

    /**
     * What the freeze copies follows the rows written, not the size of their units: a unit of 120 photos whose user
     * row is updated, one photo changed, one added and one deleted after the full comparison costs the frozen
     * catch-up three rows (the deleted one is only removed from the copy), and the target ends with exactly the
     * source's rows.
     */
    @Test
    void theFrozenCatchUpCopiesTheRowsWrittenNotTheirWholeUnits() {
        seed(100);
        int moving = shards.directory().virtualShardsOf(S0).get(0);
        long user = firstUserOn(moving);
        List<Long> photos = new ArrayList<>();
        shards.inUnit(User.class, user, session -> {
            for (int i = 0; i < 120; i++) {
                Photo photo = new Photo(user, "p" + i);
                session.persist(photo);
                photos.add(photo.getId());
            }
        });
        AtomicLong added = new AtomicLong();
        MoveFaults.install(at -> {
            if (at.equals("after-verify")) {
                shards.inUnit(User.class, user, session -> {
                    session.find(User.class, user).setEmail("renamed after the comparison");
                    session.find(Photo.class, photos.get(0)).setBlobUrl("changed after the comparison");
                    session.remove(session.find(Photo.class, photos.get(1)));
                    Photo photo = new Photo(user, "added after the comparison");
                    session.persist(photo);
                    added.set(photo.getId());
                });
            }
        });
        MoveReport report = shards.admin().move(Set.of(moving), S1, MoveOptions.defaults());
        MoveFaults.install(null);

        double copied = meters.get("atomicshards.resharding.rows.copied").tag("target", "s1").counter().count();
        assertThat(copied - report.rows()).as("rows copied beyond the rows moved").isEqualTo(3.0);
        shards.inUnit(User.class, user, session -> {
            assertThat(session.find(User.class, user).getEmail()).isEqualTo("renamed after the comparison");
            assertThat(session.find(Photo.class, photos.get(0)).getBlobUrl()).isEqualTo("changed after the comparison");
            assertThat(session.find(Photo.class, photos.get(1))).isNull();
            assertThat(session.find(Photo.class, added.get()).getBlobUrl()).isEqualTo("added after the comparison");
        });
        assertThat(Fixtures.rowsOn(dbs, "s1", "Photo")).isEqualTo(120);
        assertThat(Fixtures.rowsOn(dbs, "s0", "Photo")).isZero();
    }

    /**
     * A unit of work that entered the fence before its virtual shard went {@code MOVING} (so it does not log its unit)
     * or {@code FROZEN} (so the freeze's catch-up cannot see its write yet), and is still running, holds the move off
     * until it commits: its write reaches the target. The writer commits 1.5 s after it entered, or as soon as the move
     * reaches the step after which its write would be lost, had the move not waited for it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"before-copy", "after-verify"})
    void aUnitOfWorkRunningWhenItsVirtualShardStartsMovingOrFreezesHoldsTheMoveOffAndItsWriteMoves(String enterAt) {
        seed(100);
        int moving = shards.directory().virtualShardsOf(S0).get(0);
        String lostAfter = enterAt.equals("before-copy") ? "after-verify" : "after-switch";
        HeldWriter writer = new HeldWriter(acknowledged, shards, firstUserOn(moving), Duration.ofMillis(1_500));
        MoveFaults.install(writer.across(enterAt, lostAfter));
        shards.admin().move(Set.of(moving), S1, MoveOptions.defaults());
        MoveFaults.install(null);
        writer.commit();
        assertThat(writer.heldTheMoveOff()).as("the move waited for the writer before " + lostAfter).isTrue();
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S1);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * A unit of work that outlasts every attempt to freeze its virtual shard stops the move with the source
     * authoritative; the shard's other units are written meanwhile, and once the long unit committed, {@code resume}
     * finishes the move with its write.
     */
    @Test
    void aUnitOfWorkOutlastingTheFreezeStopsTheMoveAndResumeFinishesIt() {
        seed(100);
        List<Integer> owned = shards.directory().virtualShardsOf(S0);
        int moving = owned.get(0);
        HeldWriter writer = new HeldWriter(acknowledged, shards, firstUserOn(moving), Duration.ofSeconds(30));
        MoveFaults.install(at -> {
            if (at.equals("after-verify")) {
                writer.enter();
            }
        });
        MoveOptions impatient = MoveOptions.defaults().freezeTimeout(Duration.ofMillis(300)).freezeAttempts(2);
        assertThatThrownBy(() -> shards.admin().move(Set.of(moving), S1, impatient))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("could not be frozen");
        MoveFaults.install(null);
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S0);
        updateUser(shards, firstUserOn(owned.get(1)), 4);
        writer.commit();
        shards.admin().resume();
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S1);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * Setting a virtual shard MOVING waits for the units of work already in it (they log nothing), but not forever: a
     * unit of work outlasting every attempt stops the move with nothing switched, and resume finishes it. (PostgreSQL
     * has no lock timeout by default: the move used to wait as long as the unit of work.)
     */
    @Test
    void aUnitOfWorkOutlastingTheStartOfTheCopyStopsTheMoveAndResumeFinishesIt() {
        seed(100);
        int moving = shards.directory().virtualShardsOf(S0).get(0);
        HeldWriter writer = new HeldWriter(acknowledged, shards, firstUserOn(moving), Duration.ofSeconds(30));
        MoveFaults.install(at -> {
            if (at.equals("before-copy")) {
                writer.enter();
            }
        });
        MoveOptions impatient = MoveOptions.defaults().freezeTimeout(Duration.ofMillis(300)).freezeAttempts(2);
        long started = System.nanoTime();
        assertThatThrownBy(() -> shards.admin().move(Set.of(moving), S1, impatient))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("Running units of work held");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        MoveFaults.install(null);
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S0);
        // the first attempt may have left the virtual shard MOVING: a resume must still wait for the writer, which
        // entered before and logs nothing
        assertThatThrownBy(() -> shards.admin().resume()).isInstanceOf(MoveFailedException.class)
                .hasMessageContaining("Running units of work held");
        writer.commit();
        shards.admin().resume();
        assertThat(shards.directory().shardOf(moving)).isEqualTo(S1);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * A move finds its units on the source with one scan for all its batches: a unit created after that scan, on a
     * virtual shard of a later batch, is logged (every virtual shard of the move is MOVING from the scan on) and moved
     * by its batch's catch-up, not left behind on the source.
     */
    @Test
    void aUnitCreatedOnALaterBatchWhileAnEarlierOneRunsIsMoved() {
        seed(100);
        List<Integer> owned = shards.directory().virtualShardsOf(S0);
        List<Integer> moving = owned.subList(0, 4);
        int laterBucket = moving.get(3); // batches of 2: the second batch's
        long created = 1_000_000;
        while (Fixtures.virtualShardOf(shards, created) != laterBucket) {
            created++;
        }
        long newUser = created;
        AtomicInteger copies = new AtomicInteger();
        MoveFaults.install(at -> {
            if (at.equals("after-copy") && copies.incrementAndGet() == 1) {
                createUser(shards, newUser); // while the first batch runs, after the source was scanned
                long existing = firstUserOn(laterBucket);
                if (existing >= 0) {
                    updateUser(shards, existing, 3);
                }
            }
        });
        shards.admin().move(new TreeSet<>(moving), S1, MoveOptions.defaults().virtualShardsPerBatch(2));
        MoveFaults.install(null);
        assertThat(copies.get()).as("two batches").isEqualTo(2);
        assertThat(shards.shardFor(User.class, newUser)).contains(S1);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    private long firstUserOn(int bucket) {
        for (long id = 0; id < 100; id++) {
            if (Fixtures.virtualShardOf(shards, id) == bucket) {
                return id;
            }
        }
        return -1;
    }

    @Test
    void aSecondOperationOnTheSameVirtualShardsIsRefusedNamingTheFirst() {
        seed(50);
        Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(S0).subList(0, 2));
        MoveFaults.install(at -> {
            if (at.equals("after-copy")) {
                throw new IllegalStateException("injected crash");
            }
        });
        String first = null;
        try {
            shards.admin().move(moving, S1, MoveOptions.defaults());
        } catch (MoveFailedException e) {
            first = e.operationId();
        }
        MoveFaults.install(null);
        assertThat(first).isNotNull();
        String id = first;
        assertThatThrownBy(() -> shards.admin().move(moving, S1, MoveOptions.defaults()))
                .isInstanceOf(ReshardingConflictException.class).hasMessageContaining(id);
        shards.admin().resume();
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    @Test
    void splitMergeAndRebalanceMoveWholeUnits() {
        seed(200);
        MoveReport split = shards.admin().split(S0, S1, MoveOptions.defaults().virtualShardsPerBatch(8));
        assertThat(shards.directory().virtualShardsOf(S0)).hasSize(4);
        assertThat(split.virtualShards()).hasSize(4);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
        var plan = shards.admin().rebalance(true, MoveOptions.defaults());
        assertThat(plan.moves()).hasSize(1);
        assertThat(plan.after()).containsEntry(S0, 8).containsEntry(S1, 8);
        assertThat(shards.directory().virtualShardsOf(S0)).hasSize(4); // a dry run moves nothing
        shards.admin().merge(S0, S1, MoveOptions.defaults().virtualShardsPerBatch(8));
        assertThat(shards.directory().virtualShardsOf(S0)).isEmpty();
        assertThat(Fixtures.rowsPerShard(dbs, "app_user")).containsEntry("s0", 0L);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
        shards.admin().rebalance(false, MoveOptions.defaults().virtualShardsPerBatch(8));
        assertThat(shards.directory().virtualShardsOf(S0)).hasSize(8);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    @Test
    void roundRobinUnitsMoveWithTheVirtualShardTheyArePlacedOn() {
        shards.close();
        shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).policy(User.class, Policies.roundRobin()).build();
        seed(100);
        assertThat(Fixtures.rowsPerShard(dbs, "app_user").get("s0")).isGreaterThan(0L);
        MoveReport report = shards.admin().merge(S0, S1, MoveOptions.defaults().virtualShardsPerBatch(4));
        assertThat(report.units()).isEqualTo(50);
        assertThat(Fixtures.rowsPerShard(dbs, "app_user")).containsEntry("s0", 0L).containsEntry("s1", 100L);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
        for (long id = 0; id < 100; id += 9) {
            updateUser(shards, id, 2);
        }
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    @Test
    void drainEmptiesTheShardAndTheProgressListenerSeesEveryUnit() {
        seed(120);
        List<org.atomicshards.hibernate.admin.MoveProgress> seen = new CopyOnWriteArrayList<>();
        List<MoveReport> reports = shards.admin().drain(S0, MoveOptions.defaults().virtualShardsPerBatch(4)
                .unitsPerChunk(10).listener(seen::add));
        assertThat(shards.directory().virtualShardsOf(S0)).isEmpty();
        assertThat(Fixtures.rowsPerShard(dbs, "app_user")).containsEntry("s0", 0L);
        long moved = reports.stream().mapToLong(MoveReport::units).sum();
        assertThat(seen).isNotEmpty();
        var first = seen.get(0);
        assertThat(first.batches()).isGreaterThan(1);
        assertThat(first.unitsTotal()).as("extrapolated to the batches not begun").isGreaterThan(first.unitsCopied());
        assertThat(first.eta()).isPositive();
        var last = seen.get(seen.size() - 1);
        assertThat(last.unitsCopied()).isGreaterThanOrEqualTo(moved);
        assertThat(last.eta()).isEqualTo(Duration.ZERO);
        assertEveryAcknowledgedWriteOnceOnItsShard(shards);
    }

    /**
     * The URL of shard {@code index}'s database as a server sees it, so a {@link ChaosProxy} can stand in front of it
     * (H2 overrides this with a TCP server).
     */
    protected String serverUrl(int index) {
        return dbs.shards().get(index).url();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aShardUnreachableMidCopyStopsTheMoveAndResumeFinishesIt(int unreachable) {
        shards.close();
        String url = serverUrl(unreachable);
        try (ChaosProxy proxy = ChaosProxy.forUrl(url)) {
            shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).connectionTimeoutMillis(2_000)
                    .property(ShardingSettings.SHARD_PREFIX + "s" + unreachable + ".url", proxy.route(url))
                    .build();
            seed(200);
            Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(S0).subList(0, 4));
            MoveFaults.install(at -> {
                if (at.equals("mid-copy")) {
                    proxy.refuse();
                    proxy.cut();
                }
            });
            assertThatThrownBy(() -> shards.admin().move(moving, S1, MoveOptions.defaults().unitsPerChunk(5)))
                    .isInstanceOf(MoveFailedException.class)
                    .hasMessageContaining("resume");
            MoveFaults.install(null);
            assertThat(shards.admin().operations()).singleElement()
                    .satisfies(op -> assertThat(op.error()).isNotBlank());
            proxy.pass();
            assertEveryAcknowledgedWriteOnceOnItsShard(shards);
            shards.admin().resume();
            assertThat(shards.admin().operations()).isEmpty();
            for (int bucket : moving) {
                assertThat(shards.directory().shardOf(bucket)).isEqualTo(S1);
            }
            assertEveryAcknowledgedWriteOnceOnItsShard(shards);
            shards.close();
        } finally {
            shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).build(); // closed by shutDown()
        }
    }

    private static long keyOn(ShardedSessionFactory factory, ShardId shard) {
        for (long key = 1_000_000; ; key++) {
            if (factory.shardFor(User.class, key).orElseThrow().equals(shard)) {
                return key;
            }
        }
    }


    private void assertEveryAcknowledgedWriteOnceOnItsShard(ShardedSessionFactory factory) {
        acknowledged.assertEachOnceOnItsShard(factory);
    }

    @SuppressWarnings("unused")
    private static final Class<?> PHOTO = Photo.class;
}
