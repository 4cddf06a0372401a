package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
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
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ShardAdmin.moveUnit}: one unit of a placement policy (the big tenant) moved alone, with the same contract as
 * whole virtual shards on every database: concurrent writers lose nothing, the unit ends whole on the target and
 * nowhere else while every other unit stays where it was, a stale instance is fenced, a crash at any step is resumed,
 * a second operation on the unit is refused naming the first, and bad input is refused before anything is recorded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MoveUnitContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final long TENANT = 0L;

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;
    private AcknowledgedUsers acknowledged;
    private ShardedSessionFactory shards;

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
        shards = builder().catalog(dbs.newCatalogUrl()).build();
    }

    private ShardedSessionFactoryBuilder builder() {
        return Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).policy(User.class, Policies.roundRobin())
                .property(ShardingSettings.RESHARDING_WRITE_PAUSE, "3000");
    }

    @AfterEach
    void shutDown() {
        MoveFaults.install(null);
        shards.close();
    }

    /** Users 0 to {@code users - 1}, round robin over the shards; the tenant (user 0) with {@code extra} statuses. */
    private void seed(int users, int extra) {
        for (long id = 0; id < users; id++) {
            acknowledged.create(shards, id);
        }
        for (int n = 0; n < extra; n++) {
            acknowledged.update(shards, TENANT, n);
        }
    }

    private ShardId shardOf(ShardedSessionFactory factory, long id) {
        return factory.shardFor(User.class, id).orElseThrow();
    }

    private static ShardId other(ShardId shard) {
        return shard.equals(S0) ? S1 : S0;
    }

    private Map<Long, ShardId> placements(int users) {
        Map<Long, ShardId> placed = new HashMap<>();
        for (long id = 0; id < users; id++) {
            placed.put(id, shardOf(shards, id));
        }
        return placed;
    }


    @Test
    void concurrentWritersLoseNothingAndOnlyTheUnitMoves() throws Exception {
        seed(60, 100);
        Map<Long, ShardId> before = placements(60);
        ShardId from = before.get(TENANT);
        ShardId to = other(from);
        int sharedVirtualShard = Fixtures.virtualShardOf(shards, TENANT);
        long neighbours = before.entrySet().stream().filter(e -> e.getKey() != TENANT)
                .filter(e -> Fixtures.virtualShardOf(shards, e.getKey()) == sharedVirtualShard).count();
        assertThat(neighbours).as("units sharing the tenant's virtual shard").isPositive();

        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean moving = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger retried = new AtomicInteger();
        AtomicInteger tenantWritesDuringMove = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        // the tenant's statuses: acknowledged before a count began <= counted <= started before it ended
        AtomicLong tenantStarted = new AtomicLong(101);
        AtomicLong tenantAcknowledged = new AtomicLong(101);
        AtomicLong usersStarted = new AtomicLong(60);
        AtomicLong usersAcknowledged = new AtomicLong(60);
        List<Thread> threads = new ArrayList<>();
        threads.add(new Thread(() -> {
            int n = 1000;
            while (!stop.get()) {
                try {
                    boolean during = moving.get();
                    tenantStarted.incrementAndGet();
                    acknowledged.update(shards, TENANT, n++);
                    tenantAcknowledged.incrementAndGet();
                    writes.incrementAndGet();
                    if (during && moving.get()) {
                        tenantWritesDuringMove.incrementAndGet();
                    }
                } catch (ShardMovingException | jakarta.persistence.PessimisticLockException e) {
                    tenantStarted.decrementAndGet(); // nothing was written
                    retried.incrementAndGet();
                } catch (Throwable e) {
                    failures.add(e);
                    return;
                }
            }
        }, "tenant-writer"));
        for (int t = 0; t < 2; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                long next = 100_000L * (thread + 1);
                int n = 0;
                while (!stop.get()) {
                    try {
                        if (ThreadLocalRandom.current().nextInt(4) == 0) {
                            usersStarted.incrementAndGet();
                            acknowledged.create(shards, next++);
                            usersAcknowledged.incrementAndGet();
                        } else {
                            // each writer its own users: the last acknowledged email is then well defined
                            acknowledged.update(shards, 1 + thread + 2 * ThreadLocalRandom.current().nextInt(29), n++);
                        }
                        writes.incrementAndGet();
                    } catch (ShardMovingException | jakarta.persistence.PessimisticLockException e) {
                        retried.incrementAndGet();
                    } catch (Throwable e) {
                        failures.add(e);
                        return;
                    }
                }
            }, "writer-" + t));
        }
        List<String> wrongCounts = new CopyOnWriteArrayList<>();
        AtomicInteger countsDuringMove = new AtomicInteger();
        AtomicInteger counts = new AtomicInteger();
        threads.add(new Thread(() -> {
            while (!stop.get()) {
                try {
                    boolean during = moving.get();
                    long low = tenantAcknowledged.get();
                    long usersLow = usersAcknowledged.get();
                    long counted = shards.fanOut().createQuery("select count(s) from Status s where s.user.id = :id",
                            Long.class).setParameter("id", TENANT).getSingleResult();
                    long users = shards.fanOut().createQuery("select count(u) from User u", Long.class)
                            .getSingleResult();
                    long high = tenantStarted.get();
                    long usersHigh = usersStarted.get();
                    if (counted < low || counted > high) {
                        wrongCounts.add("tenant statuses " + counted + " not in [" + low + ", " + high + "]");
                    }
                    if (users < usersLow || users > usersHigh) {
                        wrongCounts.add("users " + users + " not in [" + usersLow + ", " + usersHigh + "]");
                    }
                    counts.incrementAndGet();
                    if (during) {
                        countsDuringMove.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                    return;
                }
            }
        }, "counter"));
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (counts.get() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20); // the fan-outs are warm and running before the move starts
        }
        // mid-copy, the move waits until the tenant was written and the shards counted a few times more, so that
        // the catch-up has writes to carry, however fast the machine
        MoveFaults.install(step -> {
            if (step.equals("mid-copy")) {
                long written = tenantAcknowledged.get();
                int counted = counts.get();
                long until = System.nanoTime() + 10_000_000_000L;
                while ((tenantAcknowledged.get() < written + 3 || counts.get() < counted + 2)
                        && System.nanoTime() < until) {
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                }
            }
        });
        moving.set(true);
        MoveReport report = shards.admin().moveUnit(User.class, TENANT, to,
                MoveOptions.defaults().unitsPerChunk(10));
        MoveFaults.install(null);
        moving.set(false);
        int countsAfter = counts.get();
        while (counts.get() < countsAfter + 2 && System.nanoTime() < deadline + 20_000_000_000L) {
            Thread.sleep(20);
        }
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertThat(failures).isEmpty();
        assertThat(wrongCounts).isEmpty();
        System.out.println("MOVE_UNIT " + kind() + " | 1 unit, " + report.rows() + " rows in "
                + report.duration().toMillis() + " ms, write pause " + report.writePauses().stream()
                .map(Duration::toMillis).toList() + " ms, " + writes.get() + " writes during the run ("
                + tenantWritesDuringMove.get() + " to the moving unit while it moved), " + retried.get()
                + " retryable refusals, " + counts.get() + " fan-out counts (" + countsDuringMove.get() + " begun during the "
                + "move)");
        assertThat(report.units()).isEqualTo(1);
        assertThat(report.rows()).isGreaterThan(100);
        assertThat(tenantWritesDuringMove.get()).isPositive();
        assertThat(countsDuringMove.get()).isPositive();
        assertThat(shardOf(shards, TENANT)).isEqualTo(to);
        for (Map.Entry<Long, ShardId> entry : before.entrySet()) {
            if (entry.getKey() != TENANT) {
                assertThat(shardOf(shards, entry.getKey())).as("user " + entry.getKey()).isEqualTo(entry.getValue());
            }
        }
        acknowledged.assertEachOnceOnItsShard(shards);
        assertThat(shards.admin().operations()).isEmpty();
        acknowledged.update(shards, TENANT, 5000);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    @ParameterizedTest
    @ValueSource(strings = {"before-copy", "mid-copy", "after-copy", "after-verify", "after-switch", "after-promote",
            "mid-delete", "after-release"})
    void aCrashAtAnyStepIsResumedWithNothingLostOrDuplicated(String step) {
        seed(20, 20);
        ShardId to = other(shardOf(shards, TENANT));
        MoveFaults.install(at -> {
            if (at.equals(step)) {
                throw new IllegalStateException("injected crash at " + step);
            }
        });
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, TENANT, to))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("injected crash at " + step)
                .hasMessageContaining("resume");
        MoveFaults.install(null);
        assertThat(shards.admin().operations()).singleElement()
                .satisfies(op -> assertThat(op.kind()).isEqualTo("MOVE_UNIT"));
        // the other units, those on the tenant's virtual shard too, are written as usual while the move waits
        for (long id = 1; id < 20; id++) {
            acknowledged.update(shards, id, 1);
        }
        boolean switchedNotPromoted = step.equals("after-switch");
        boolean promoted = step.equals("after-promote") || step.equals("mid-delete") || step.equals("after-release");
        if (switchedNotPromoted) {
            assertThatThrownBy(() -> acknowledged.update(shards, TENANT, 1))
                    .isInstanceOf(ShardMovingException.class);
        } else if (promoted) {
            acknowledged.update(shards, TENANT, 1); // on the target; the source's old rows go with the resume
            assertThat(shardOf(shards, TENANT)).isEqualTo(to);
        } else {
            acknowledged.update(shards, TENANT, 1); // logged, copied again by the resume
            acknowledged.assertEachOnceOnItsShard(shards);
        }
        List<MoveReport> resumed = shards.admin().resume();
        assertThat(resumed).hasSize(1);
        assertThat(shards.admin().operations()).isEmpty();
        assertThat(shardOf(shards, TENANT)).isEqualTo(to);
        acknowledged.assertEachOnceOnItsShard(shards);
        acknowledged.update(shards, TENANT, 2);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A unit of work on the unit that entered the fence before the unit's row went {@code MOVING} (so it does not log
     * the unit) or {@code FROZEN}, and is still running, holds the move off until it commits: its write moves with the
     * unit. The writer commits 1.5 s after it entered, or as soon as the move reaches the step after which its write
     * would be lost, had the move not waited for it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"before-copy", "after-verify"})
    void aUnitOfWorkRunningWhenTheUnitStartsMovingOrFreezesHoldsTheMoveOffAndItsWriteMoves(String enterAt) {
        seed(10, 5);
        ShardId from = shardOf(shards, TENANT);
        String lostAfter = enterAt.equals("before-copy") ? "after-verify" : "after-switch";
        HeldWriter writer = new HeldWriter(acknowledged, shards, TENANT, Duration.ofMillis(1_500));
        MoveFaults.install(writer.across(enterAt, lostAfter));
        shards.admin().moveUnit(User.class, TENANT, other(from));
        MoveFaults.install(null);
        writer.commit();
        assertThat(writer.heldTheMoveOff()).as("the move waited for the writer before " + lostAfter).isTrue();
        assertThat(shardOf(shards, TENANT)).isEqualTo(other(from));
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A unit of work on the moving unit that outlasts every attempt to freeze it stops the move with the source
     * authoritative (its neighbours are written meanwhile); once it committed, {@code resume} moves the unit with its
     * write.
     */
    @Test
    void aUnitOfWorkOutlastingTheFreezeStopsTheMoveAndResumeFinishesIt() {
        seed(10, 5);
        ShardId from = shardOf(shards, TENANT);
        HeldWriter writer = new HeldWriter(acknowledged, shards, TENANT, Duration.ofSeconds(30));
        MoveFaults.install(at -> {
            if (at.equals("after-verify")) {
                writer.enter();
            }
        });
        MoveOptions impatient = MoveOptions.defaults().freezeTimeout(Duration.ofMillis(300)).freezeAttempts(2);
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, TENANT, other(from), impatient))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("could not be frozen");
        MoveFaults.install(null);
        assertThat(shardOf(shards, TENANT)).isEqualTo(from);
        for (long id = 1; id < 10; id++) {
            acknowledged.update(shards, id, 1);
        }
        writer.commit();
        shards.admin().resume();
        assertThat(shardOf(shards, TENANT)).isEqualTo(other(from));
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A bulk HQL update of a unit moving alone, in a session the application opened on its shard after the move compared
     * it: the bulk write's fence logs the moving unit, and the update reaches the target.
     */
    @Test
    void aBulkUpdateOfAUnitMovingAloneReachesTheTarget() throws Exception {
        seed(10, 0);
        ShardId from = shardOf(shards, TENANT);
        ShardId to = other(from);
        CountDownLatch verified = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        MoveFaults.install(at -> {
            if (at.equals("after-verify") && verified.getCount() > 0) {
                verified.countDown();
                try {
                    written.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        CompletableFuture<MoveReport> move = CompletableFuture.supplyAsync(
                () -> shards.admin().moveUnit(User.class, TENANT, to));
        assertThat(verified.await(30, TimeUnit.SECONDS)).isTrue();
        try (Session session = shards.openSession(from)) {
            session.getTransaction().begin();
            assertThat(session.createMutationQuery("update User u set u.email = :email where u.id = :id")
                    .setParameter("email", "bulk while moving").setParameter("id", TENANT).executeUpdate()).isOne();
            session.getTransaction().commit();
        } finally {
            written.countDown();
        }
        move.get(60, TimeUnit.SECONDS);

        assertThat(shardOf(shards, TENANT)).isEqualTo(to);
        assertThat(shards.find(User.class, TENANT).getEmail()).isEqualTo("bulk while moving");
    }

    @Test
    void aSecondOperationOnTheUnitIsRefusedNamingTheFirst() {
        seed(10, 5);
        ShardId to = other(shardOf(shards, TENANT));
        MoveFaults.install(at -> {
            if (at.equals("after-copy")) {
                throw new IllegalStateException("injected crash");
            }
        });
        String first = null;
        try {
            shards.admin().moveUnit(User.class, TENANT, to);
        } catch (MoveFailedException e) {
            first = e.operationId();
        }
        MoveFaults.install(null);
        assertThat(first).isNotNull();
        String id = first;
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, TENANT, to))
                .isInstanceOf(ReshardingConflictException.class).hasMessageContaining(id)
                .hasMessageContaining("unit " + User.class.getName() + " key 0");
        int bucket = Fixtures.virtualShardOf(shards, TENANT);
        assertThatThrownBy(() -> shards.admin().move(Set.of(bucket), to))
                .isInstanceOf(ReshardingConflictException.class).hasMessageContaining(id);
        assertThat(shards.admin().operations()).hasSize(1);
        shards.admin().resume();
        assertThat(shardOf(shards, TENANT)).isEqualTo(to);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    @Test
    void theTombstoneOfAMovedUnitTravelsWithItsOldVirtualShard() throws Exception {
        seed(6, 0);
        ShardId from = shardOf(shards, TENANT);
        ShardId to = other(from);
        int old = Fixtures.virtualShardOf(shards, TENANT);
        shards.admin().moveUnit(User.class, TENANT, to);
        assertThat(fenceRows(from)).containsExactly(User.class.getName() + "|0|" + old + "|GONE");
        assertThat(fenceRows(to)).isEmpty(); // promoted: the unit's row on the target is gone
        shards.admin().move(Set.of(old), to);
        // an instance still routing the tenant through its old virtual shard is turned away by its new owner too
        assertThat(fenceRows(to)).containsExactly(User.class.getName() + "|0|" + old + "|GONE");
        assertThat(fenceRows(from)).isEmpty();
        acknowledged.update(shards, TENANT, 1);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    private List<String> fenceRows(ShardId shard) throws java.sql.SQLException {
        List<String> rows = new ArrayList<>();
        try (java.sql.Connection c = dbs.connect(shard.name());
             java.sql.PreparedStatement ps = c.prepareStatement(
                     "select unit_name, unit_key, bucket, state from as_unit_fence");
             java.sql.ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getInt(3) + "|" + rs.getString(4));
            }
        }
        return rows;
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsRecorded() {
        seed(4, 0);
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, TENANT, ShardId.of("s9")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s9'");
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, 987_654L, S1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("987654")
                .hasMessageContaining("never placed");
        assertThatThrownBy(() -> shards.admin().moveUnit(Status.class, 1L, S1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the root")
                .hasMessageContaining(User.class.getName());
        assertThat(shards.admin().operations()).isEmpty();
        shards.close();
        shards = Fixtures.builder(dbs, VIRTUAL_SHARDS).build(); // User with the default policy, hash
        assertThatThrownBy(() -> shards.admin().moveUnit(User.class, 7L, S1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("policy 'hash'")
                .hasMessageContaining("ShardAdmin.move(Set.of(" + Fixtures.virtualShardOf(shards, 7L) + ")")
                .hasMessageContaining("'lookup' and 'round_robin'");
        assertThat(shards.admin().operations()).isEmpty();
    }

    @Test
    void aLookupUnitPlacedByHandMovesAndARestartFindsItThere() {
        String catalog = dbs.newCatalogUrl();
        shards.close();
        shards = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).policy(User.class, Policies.lookup())
                .catalog(catalog).build();
        shards.place(User.class, 5L, S0);
        shards.place(User.class, 6L, S0);
        acknowledged.create(shards, 5L);
        acknowledged.create(shards, 6L);
        MoveReport report = shards.admin().moveUnit(User.class, 5L, S1);
        assertThat(report.units()).isEqualTo(1);
        assertThat(shardOf(shards, 5L)).isEqualTo(S1);
        assertThat(shardOf(shards, 6L)).isEqualTo(S0);
        assertThat(shards.admin().moveUnit(User.class, 5L, S1).units()).isZero(); // already there
        acknowledged.update(shards, 5L, 1);
        assertThat(shards.find(User.class, 5L).getEmail()).isEqualTo("u5-1");
        acknowledged.assertEachOnceOnItsShard(shards);
        shards.close();
        shards = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).policy(User.class, Policies.lookup())
                .catalog(catalog).schemaAction("none").build();
        assertThat(shardOf(shards, 5L)).isEqualTo(S1);
        acknowledged.update(shards, 5L, 2);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    @Test
    void staleInstancesAreFencedReadFromAndWriteToTheNewShard() {
        String catalog = dbs.newCatalogUrl();
        shards.close();
        shards = builder().catalog(catalog).build();
        try (ShardedSessionFactory writer = stale(catalog);
             ShardedSessionFactory reader = stale(catalog);
             ShardedSessionFactory finder = stale(catalog)) {
            seed(10, 3);
            ShardId from = shardOf(writer, TENANT); // they all cache the placement
            assertThat(shardOf(reader, TENANT)).isEqualTo(from);
            assertThat(finder.find(User.class, TENANT)).isNotNull();
            assertThat(reader.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(10L);
            ShardId to = other(from);
            shards.admin().moveUnit(User.class, TENANT, to);
            assertThat(shardOf(writer, TENANT)).isEqualTo(from); // it has not looked
            acknowledged.update(writer, TENANT, 1); // turned away by the source's fence, then on the new shard
            assertThat(shardOf(writer, TENANT)).isEqualTo(to);
            // pruned to the old shard by the reader's old placement: the shard's claim names a newer map
            assertThat(reader.fanOut().createQuery("select u.email from User u where u.id = :id", String.class)
                    .setParameter("id", TENANT).getResultList()).containsExactly("u0-1");
            assertThat(reader.fanOut().createQuery("select count(s) from Status s", Long.class).getSingleResult())
                    .isEqualTo(10L + 4L);
            try (ShardedSessionFactory another = builder().catalog(catalog).schemaAction("none").build()) {
                assertThat(shardOf(another, TENANT)).isEqualTo(to);
            }
            assertThat(shardOf(finder, TENANT)).isEqualTo(from);
            // read on the old shard, which then shows the unit gone: read again on the new one
            assertThat(finder.find(User.class, TENANT).getEmail()).isEqualTo("u0-1");
            assertThat(shardOf(finder, TENANT)).isEqualTo(to);
            acknowledged.assertEachOnceOnItsShard(shards);
        }
    }

    /** An instance that never refreshes on its own (so it takes no write leases): only the fence tells it. */
    private ShardedSessionFactory stale(String catalog) {
        return builder().catalog(catalog).schemaAction("none")
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "0").build();
    }
}
