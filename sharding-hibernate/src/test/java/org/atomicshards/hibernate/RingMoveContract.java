package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
import org.atomicshards.hibernate.internal.routing.ConsistentHashRing;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ShardAdmin.addRingMember} and {@code removeRingMember}: a {@code consistent_hash} unit's ring of s0 and s1
 * gains s2 at run time, or, once it has, loses s1, on every database. Exactly the keys the new ring gives to another
 * shard move (checked against rings built here), concurrent
 * writers lose nothing, fan-out counts stay within what was acknowledged and what was begun, a stale instance is
 * fenced, a crash at any step is resumed, a second change of the ring is refused naming the first, and bad input is
 * refused before anything is recorded.
 */
abstract class RingMoveContract {

    private static final int VIRTUAL_SHARDS = 8;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final ShardId S2 = ShardId.of("s2");
    private static final ConsistentHashRing BEFORE = new ConsistentHashRing(List.of(S0, S1), 150);
    private static final ConsistentHashRing AFTER = new ConsistentHashRing(List.of(S0, S1, S2), 150);
    private static final ConsistentHashRing WITHOUT_S1 = new ConsistentHashRing(List.of(S0, S2), 150);

    /** The two changes: s2 joins the ring of s0 and s1; s1 leaves the ring of three. */
    enum Change {
        JOIN(BEFORE, AFTER, S0, S2), LEAVE(AFTER, WITHOUT_S1, S1, S0);

        final ConsistentHashRing before;
        final ConsistentHashRing after;
        /** The first batch's source and target. */
        final ShardId from;
        final ShardId to;

        Change(ConsistentHashRing before, ConsistentHashRing after, ShardId from, ShardId to) {
            this.before = before;
            this.after = after;
            this.from = from;
            this.to = to;
        }

        /** Brings the ring to {@link #before} (s2 joins first for LEAVE). */
        void prepare(ShardedSessionFactory shards) {
            if (this == LEAVE) {
                shards.admin().addRingMember(User.class, S2);
            }
        }

        MoveReport apply(ShardedSessionFactory shards, MoveOptions options) {
            return this == JOIN ? shards.admin().addRingMember(User.class, S2, options)
                    : shards.admin().removeRingMember(User.class, S1, options);
        }

        boolean moves(long key) {
            return !before.shardFor(key).equals(after.shardFor(key));
        }

        /** The first key from {@code from} that the first batch moves. */
        long firstBatchKey(long from) {
            for (long key = from; ; key++) {
                if (before.shardFor(key).equals(this.from) && after.shardFor(key).equals(to)) {
                    return key;
                }
            }
        }
    }

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;
    private AcknowledgedUsers acknowledged;
    private ShardedSessionFactory shards;
    private String catalog;

    /** New databases for each test: s2 joins at run time, so no schema action of the factory empties it. */
    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(kind(), 3);
        acknowledged = new AcknowledgedUsers(dbs);
        catalog = dbs.newCatalogUrl();
        shards = builder("create").build();
        ShardDatabase s2 = dbs.shards().get(2);
        shards.admin().addShard("s2", s2.url(), s2.user(), s2.password());
    }

    /** An instance configured with s0 and s1 (s2 is added at run time) on this test's catalog. */
    private ShardedSessionFactoryBuilder builder(String schemaAction) {
        ShardedSessionFactoryBuilder builder = Fixtures.builderWithFirst(dbs, VIRTUAL_SHARDS, 2, catalog)
                .policy(User.class, Policies.consistentHash())
                .property(ShardingSettings.RESHARDING_WRITE_PAUSE, "3000")
                .schemaAction(schemaAction);
        ShardDatabase s2 = dbs.shards().get(2);
        if (s2.user() != null) {
            builder.property(ShardingSettings.SHARD_PREFIX + "s2.user", s2.user());
            builder.property(ShardingSettings.SHARD_PREFIX + "s2.password", s2.password());
        }
        return builder;
    }

    @AfterEach
    void shutDown() {
        MoveFaults.install(null);
        shards.close();
        dbs.close();
    }

    private void seed(int users) {
        for (long id = 0; id < users; id++) {
            acknowledged.create(shards, id);
        }
    }

    private static ShardId shardOf(ShardedSessionFactory factory, long id) {
        return factory.shardFor(User.class, id).orElseThrow();
    }

    /** The first key from {@code from} that the new ring takes from {@code source}. */
    private static long movingFrom(ShardId source, long from) {
        for (long key = from; ; key++) {
            if (BEFORE.shardFor(key).equals(source) && AFTER.shardFor(key).equals(S2)) {
                return key;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Change.class)
    void exactlyTheKeysTheNewRingReassignsMoveWhileWritersRun(Change change) throws Exception {
        seed(80);
        change.prepare(shards);
        Map<Long, ShardId> before = new HashMap<>();
        for (long id = 0; id < 80; id++) {
            before.put(id, shardOf(shards, id));
            assertThat(before.get(id)).as("user " + id + " before").isEqualTo(change.before.shardFor(id));
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean moving = new AtomicBoolean();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger retried = new AtomicInteger();
        AtomicInteger writesDuringMove = new AtomicInteger();
        AtomicLong usersStarted = new AtomicLong(80);
        AtomicLong usersAcknowledged = new AtomicLong(80);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                long next = 100_000L * (thread + 1);
                int n = 0;
                while (!stop.get()) {
                    boolean during = moving.get();
                    try {
                        if (ThreadLocalRandom.current().nextInt(4) == 0) {
                            usersStarted.incrementAndGet();
                            try {
                                acknowledged.create(shards, next);
                            } catch (ShardMovingException e) {
                                usersStarted.decrementAndGet(); // nothing was written
                                throw e;
                            }
                            next++;
                            usersAcknowledged.incrementAndGet();
                        } else {
                            // each writer its own users: the last acknowledged email is then well defined
                            acknowledged.update(shards, thread + 2 * ThreadLocalRandom.current().nextInt(40), n++);
                        }
                        if (during && moving.get()) {
                            writesDuringMove.incrementAndGet();
                        }
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
        AtomicInteger counts = new AtomicInteger();
        AtomicInteger countsDuringMove = new AtomicInteger();
        threads.add(new Thread(() -> {
            while (!stop.get()) {
                try {
                    boolean during = moving.get();
                    long low = usersAcknowledged.get();
                    long users = shards.fanOut().createQuery("select count(u) from User u", Long.class)
                            .getSingleResult();
                    long high = usersStarted.get();
                    if (users < low || users > high) {
                        wrongCounts.add("users " + users + " not in [" + low + ", " + high + "]");
                    }
                    counts.incrementAndGet();
                    if (during && moving.get()) {
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
            Thread.sleep(20);
        }
        // mid-copy of each batch, the move waits for a few writes and counts, so that the catch-up has work to do
        MoveFaults.install(step -> {
            if (step.equals("mid-copy")) {
                long written = usersAcknowledged.get() + writesDuringMove.get();
                int counted = counts.get();
                long until = System.nanoTime() + 10_000_000_000L;
                while ((usersAcknowledged.get() + writesDuringMove.get() < written + 3 || counts.get() < counted + 2)
                        && System.nanoTime() < until) {
                    java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
                }
            }
        });
        long leavingBefore = acknowledgedIds().stream().filter(change::moves).count();
        moving.set(true);
        MoveReport report = change.apply(shards, MoveOptions.defaults().unitsPerChunk(10));
        moving.set(false);
        long leavingAfter = acknowledgedIds().stream().filter(change::moves).count() + 2; // + one per writer
        MoveFaults.install(null);
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
        System.out.println("RING_MOVE " + change + " " + kind() + " | " + report.units() + " units, " + report.rows() + " rows in "
                + report.duration().toMillis() + " ms, write pauses " + report.writePauses().stream()
                .map(Duration::toMillis).toList() + " ms, " + writesDuringMove.get() + " writes during the move, "
                + retried.get() + " retryable refusals, " + counts.get() + " fan-out counts ("
                + countsDuringMove.get() + " during the move)");
        assertThat(writesDuringMove.get()).isPositive();
        assertThat(countsDuringMove.get()).isPositive();
        assertThat(report.writePauses()).hasSize(2); // one batch per pair of old and new owner
        assertThat(leavingBefore).isPositive();
        assertThat(report.units()).isBetween(leavingBefore, leavingAfter); // and units created meanwhile on s0, s1
        for (long id : acknowledgedIds()) {
            assertThat(shardOf(shards, id)).as("user " + id + " after").isEqualTo(change.after.shardFor(id));
        }
        for (Map.Entry<Long, ShardId> entry : before.entrySet()) {
            if (!change.moves(entry.getKey())) {
                assertThat(shardOf(shards, entry.getKey())).isEqualTo(entry.getValue()); // the others stayed
            }
        }
        acknowledged.assertEachOnceOnItsShard(shards);
        assertThat(shards.admin().operations()).isEmpty();
        try (ShardedSessionFactory restarted = builder("none").build()) {
            for (long id : acknowledgedIds()) {
                assertThat(shardOf(restarted, id)).as("user " + id + " after a restart")
                        .isEqualTo(change.after.shardFor(id));
            }
            assertThat(restarted.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo((long) acknowledgedIds().size());
        }
        assertThat(change.apply(shards, MoveOptions.defaults()).units()).isZero(); // done already
    }

    private List<Long> acknowledgedIds() {
        return acknowledged.ids();
    }

    @ParameterizedTest
    @CsvSource({"JOIN, before-copy", "JOIN, mid-copy", "JOIN, after-copy", "JOIN, after-verify", "JOIN, before-switch", "JOIN, after-switch", "JOIN, after-promote", "JOIN, mid-delete", "JOIN, after-release", "LEAVE, before-copy", "LEAVE, mid-copy", "LEAVE, after-copy", "LEAVE, after-verify", "LEAVE, before-switch", "LEAVE, after-switch", "LEAVE, after-promote", "LEAVE, mid-delete", "LEAVE, after-release"})
    void aCrashAtAnyStepIsResumedWithNothingLostOrDuplicated(Change change, String step) {
        seed(40);
        change.prepare(shards);
        long leaving = change.firstBatchKey(0);
        long staying = 0;
        while (change.moves(staying) || change.before.shardFor(staying).equals(change.from)) {
            staying++;
        }
        MoveFaults.install(at -> {
            if (at.equals(step)) {
                throw new IllegalStateException("injected crash at " + step);
            }
        });
        assertThatThrownBy(() -> change.apply(shards, MoveOptions.defaults()))
                .isInstanceOf(MoveFailedException.class).hasMessageContaining("injected crash at " + step)
                .hasMessageContaining("resume");
        MoveFaults.install(null);
        assertThat(shards.admin().operations()).singleElement()
                .satisfies(op -> assertThat(op.kind()).isEqualTo(change == Change.JOIN ? "JOIN_RING"
                        : "LEAVE_RING"));
        // a key the change does not move, off the first batch's source, is written as usual while the change waits
        acknowledged.update(shards, staying, 1);
        if (step.equals("before-switch") || step.equals("after-switch")) {
            // the source frozen, the target not promoted (INCOMING): writes of the batch's keys wait
            assertThatThrownBy(() -> acknowledged.update(shards, leaving, 1))
                    .isInstanceOf(ShardMovingException.class);
        } else {
            acknowledged.update(shards, leaving, 1); // on the source (logged, or copied by the resume), or the target
            boolean switched = step.equals("after-promote") || step.equals("mid-delete")
                    || step.equals("after-release");
            assertThat(shardOf(shards, leaving)).isEqualTo(switched ? change.to : change.from);
        }
        List<MoveReport> resumed = shards.admin().resume();
        assertThat(resumed).hasSize(1);
        assertThat(shards.admin().operations()).isEmpty();
        for (long id : acknowledgedIds()) {
            assertThat(shardOf(shards, id)).as("user " + id).isEqualTo(change.after.shardFor(id));
        }
        acknowledged.assertEachOnceOnItsShard(shards);
        acknowledged.update(shards, leaving, 2);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A fan-out that starts while a batch's keys are live on both members (promoted on the new one, not yet deleted
     * from the old one) or while the old one is frozen runs again until the batch is released: it never counts them
     * twice. The move is held at the step for 300 ms while the count runs.
     */
    @ParameterizedTest
    @ValueSource(strings = {"after-switch", "after-promote", "mid-delete"})
    void aFanOutDuringABatchsSwitchWaitsForItInsteadOfCountingKeysTwice(String step) throws Exception {
        seed(40);
        List<Long> counted = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean started = new AtomicBoolean();
        MoveFaults.install(at -> {
            if (at.equals(step) && started.compareAndSet(false, true)) {
                Thread counter = new Thread(() -> {
                    try {
                        counted.add(shards.fanOut().createQuery("select count(s) from Status s", Long.class)
                                .getSingleResult());
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                counter.start();
                java.util.concurrent.locks.LockSupport.parkNanos(300_000_000L);
                if (!counted.isEmpty()) {
                    failures.add(new AssertionError("the count ended during the switch: " + counted));
                }
            }
        });
        shards.admin().addRingMember(User.class, S2);
        MoveFaults.install(null);
        long until = System.nanoTime() + 10_000_000_000L;
        while (counted.isEmpty() && failures.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertThat(failures).isEmpty();
        assertThat(counted).containsExactly(40L);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * While the first batch switches (held at the step after the switch: the source frozen, the target not promoted),
     * only the keys that batch moves wait: the source's other keys and the target's own keys are written at once, by an
     * instance that knows the change, and a key of the batch is refused after the write pause.
     */
    @ParameterizedTest
    @EnumSource(Change.class)
    void onlyTheKeysOfTheBatchBeingSwitchedWait(Change change) {
        seed(40);
        change.prepare(shards);
        long sourceKeeps = key(k -> change.before.shardFor(k).equals(change.from)
                && !change.after.shardFor(k).equals(change.to));
        long switching = change.firstBatchKey(0);
        List<String> done = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        MoveFaults.install(at -> {
            if (at.equals("after-switch") && done.isEmpty()) {
                try {
                    acknowledged.update(shards, sourceKeeps, 1);
                    done.add("a key the source keeps");
                    if (change == Change.LEAVE) {
                        long targetKeeps = key(k -> change.before.shardFor(k).equals(change.to));
                        acknowledged.update(shards, targetKeeps, 1);
                        done.add("a key of the target");
                    }
                    assertThatThrownBy(() -> acknowledged.update(shards, switching, 1))
                            .isInstanceOf(ShardMovingException.class);
                    done.add("a key of the batch waited");
                } catch (Throwable e) {
                    failures.add(e);
                }
            }
        });
        change.apply(shards, MoveOptions.defaults());
        MoveFaults.install(null);
        assertThat(failures).isEmpty();
        assertThat(done).contains("a key the source keeps", "a key of the batch waited");
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A switch that did not happen leaves the target's ring row {@code INCOMING}; the resume's copy takes it back, and
     * waits for the target's running writers of the unit at most the freeze timeout: a writer outlasting it stops the
     * resume, which finishes once the writer committed. On H2, which has no shared row locks, nothing waits.
     */
    @Test
    void aRowLeftIncomingIsTakenBackWithinTheFreezeTimeout() {
        seed(30);
        Change change = Change.LEAVE;
        change.prepare(shards);
        long own = key(k -> change.before.shardFor(k).equals(change.to)); // a key the first batch's target keeps
        MoveFaults.install(at -> {
            if (at.equals("before-switch")) {
                throw new IllegalStateException("injected crash at before-switch");
            }
        });
        assertThatThrownBy(() -> change.apply(shards, MoveOptions.defaults()))
                .isInstanceOf(MoveFailedException.class);
        MoveFaults.install(null);
        HeldWriter writer = new HeldWriter(acknowledged, shards, own, Duration.ofSeconds(30));
        writer.enter(); // not a key of the batch: it enters the INCOMING row and holds it
        MoveOptions impatient = MoveOptions.defaults().freezeTimeout(Duration.ofMillis(1000)).freezeAttempts(2);
        if (kind() == DatabaseKind.H2) {
            assertThat(shards.admin().resume(impatient)).hasSize(1);
            writer.commit();
        } else {
            assertThatThrownBy(() -> shards.admin().resume(impatient)).isInstanceOf(MoveFailedException.class)
                    .hasMessageContaining("took it back from INCOMING");
            writer.commit();
            assertThat(shards.admin().resume(impatient)).hasSize(1);
        }
        assertThat(shards.admin().operations()).isEmpty();
        for (long id : acknowledgedIds()) {
            assertThat(shardOf(shards, id)).as("user " + id).isEqualTo(change.after.shardFor(id));
        }
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /** The first user key from 0 that {@code wanted} accepts (one of the seeded users). */
    private static long key(java.util.function.LongPredicate wanted) {
        for (long key = 0; ; key++) {
            if (wanted.test(key)) {
                return key;
            }
        }
    }

    /**
     * A unit of work on the target's own keys that outlasts the freeze timeout holds off the batch's switch (which waits
     * for the target's writers), whether it began before the change or during its copy: the batch stops before
     * switching, the source takes writes again, and {@code resume} finishes once the writer committed. The start of the
     * copy does not wait for it (a writer held for longer than the test would otherwise let the change go through once
     * it let go). On H2, which has no shared row locks, the switch does not wait for it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"before-copy", "after-verify"})
    void aWriterOnTheTargetOutlastingTheFreezeTimeoutStopsTheBatchBeforeItsSwitch(String enterAt) {
        seed(30);
        Change change = Change.LEAVE;
        change.prepare(shards);
        long own = 0;
        while (!change.before.shardFor(own).equals(change.to)) {
            own++; // a key the first batch's target keeps
        }
        long leaving = change.firstBatchKey(0);
        HeldWriter writer = new HeldWriter(acknowledged, shards, own, Duration.ofSeconds(30));
        MoveFaults.install(at -> {
            if (at.equals(enterAt)) {
                writer.enter();
            }
        });
        MoveOptions impatient = MoveOptions.defaults().freezeTimeout(Duration.ofMillis(1000)).freezeAttempts(2);
        if (kind() == DatabaseKind.H2) {
            change.apply(shards, impatient);
            MoveFaults.install(null);
            writer.commit();
        } else {
            assertThatThrownBy(() -> change.apply(shards, impatient)).isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);
            assertThat(shardOf(shards, leaving)).isEqualTo(change.from);
            acknowledged.update(shards, leaving, 1); // the source is not frozen any more
            writer.commit();
            assertThat(shards.admin().resume()).hasSize(1);
        }
        assertThat(shards.admin().operations()).isEmpty();
        assertThat(shardOf(shards, leaving)).isEqualTo(change.to);
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /**
     * A unit of work of another instance (fenced: no lease) that began before the first ring change on its shard: the
     * change's batch from that shard waits for it, so the unit it creates is copied and moves, however late it would
     * commit. The ring row exists
     * from the instance's first unit of work there; without it the writer locked nothing, the batch began without
     * it and its new unit stayed behind on the source.
     */
    @Test
    void aWriterThatBeganBeforeTheFirstRingChangeIsWaitedForAndItsNewUnitMoves() throws Exception {
        try (ShardedSessionFactory writer = builder("none")
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build()) {
            seed(20);
            long key = movingFrom(S0, 300_000);
            OpenUnitOfWork creating = OpenUnitOfWork.flush(writer, key,
                    session -> session.persist(new User(key, "u" + key)));
            // the writer commits once the batch from s0 is verified, after its last look at s0's rows, or after 2 s
            // if the batch waits for it (as it must)
            MoveFaults.install(step -> {
                if (step.equals("after-verify")) {
                    creating.release();
                    creating.done().join();
                }
            });
            CompletableFuture.delayedExecutor(2, TimeUnit.SECONDS).execute(creating::release);
            MoveReport report = Change.JOIN.apply(shards, MoveOptions.defaults().freezeTimeout(Duration.ofSeconds(20)));
            creating.done().get(30, TimeUnit.SECONDS);

            assertThat(report.units()).isPositive(); // the seeded ones
            assertThat(shardOf(shards, key)).isEqualTo(S2);
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("left behind on the source").isFalse();
            assertThat(Fixtures.hasRow(dbs, "s2", "app_user", key)).as("on the new member").isTrue();
        }
    }

    @Test
    void aStaleInstanceIsFencedAndReadsAndWritesTheNewMember() {
        try (ShardedSessionFactory stale = builder("none").build()) {
            seed(30);
            long leaving = movingFrom(S1, 0);
            assertThat(shardOf(stale, leaving)).isEqualTo(S1);
            assertThat(stale.find(User.class, leaving)).isNotNull();
            assertThat(stale.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(30L);
            shards.admin().addRingMember(User.class, S2);
            assertThat(shardOf(stale, leaving)).isEqualTo(S1); // it has not looked
            // read on the old member, which shows its ring changed under a newer map: read again on the new one
            assertThat(stale.find(User.class, leaving).getEmail()).isEqualTo("u" + leaving);
            assertThat(shardOf(stale, leaving)).isEqualTo(S2);
            acknowledged.update(stale, leaving, 1);
            assertThat(stale.fanOut().createQuery("select count(s) from Status s", Long.class).getSingleResult())
                    .isEqualTo(31L);
            acknowledged.assertEachOnceOnItsShard(shards);
        }
        try (ShardedSessionFactory stale = builder("none").build()) {
            long created = movingFrom(S0, 1000);
            acknowledged.create(stale, created); // on s2: a new instance reads the ring of three
            assertThat(shardOf(stale, created)).isEqualTo(S2);
        }
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    /** A ring change stopped after its first promotion is finished by another instance's auto-resume, on its own. */
    @Test
    void anotherInstanceWithAutoResumeFinishesAStoppedRingChange() throws InterruptedException {
        seed(30);
        try (ShardedSessionFactory resumer = builder("none").property(ShardingSettings.RESHARDING_AUTO_RESUME, "true")
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100").build()) {
            MoveFaults.install(step -> {
                if (step.equals("after-promote")) {
                    throw new IllegalStateException("the mover's process stopped here (played)");
                }
            });
            assertThatThrownBy(() -> shards.admin().addRingMember(User.class, S2))
                    .isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!resumer.admin().operations().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(resumer.admin().operations()).as("finished without anyone calling resume").isEmpty();
            for (long id : acknowledgedIds()) {
                assertThat(shardOf(resumer, id)).as("user " + id).isEqualTo(AFTER.shardFor(id));
            }
            acknowledged.assertEachOnceOnItsShard(resumer);
        }
    }

    @Test
    void aStaleWriterIsTurnedAwayByTheOldMemberAndRetriedOnTheNewOne() {
        try (ShardedSessionFactory stale = builder("none").build()) {
            seed(30);
            long leaving = movingFrom(S0, 0);
            assertThat(shardOf(stale, leaving)).isEqualTo(S0);
            shards.admin().addRingMember(User.class, S2);
            acknowledged.update(stale, leaving, 1); // turned away by s0's ring fence, then written on s2
            assertThat(shardOf(stale, leaving)).isEqualTo(S2);
            acknowledged.assertEachOnceOnItsShard(shards);
        }
    }

    @Test
    void aSecondChangeOfTheRingIsRefusedNamingTheFirst() {
        seed(20);
        MoveFaults.install(at -> {
            if (at.equals("after-copy")) {
                throw new IllegalStateException("injected crash");
            }
        });
        String first = null;
        try {
            shards.admin().addRingMember(User.class, S2);
        } catch (MoveFailedException e) {
            first = e.operationId();
        }
        MoveFaults.install(null);
        assertThat(first).isNotNull();
        String id = first;
        assertThatThrownBy(() -> shards.admin().addRingMember(User.class, S2))
                .isInstanceOf(ReshardingConflictException.class).hasMessageContaining(id)
                .hasMessageContaining("consistent-hash ring of unit " + User.class.getName());
        assertThat(shards.admin().operations()).hasSize(1);
        // the joining member is in no ring yet, but may hold keys: it cannot be retired meanwhile
        assertThatThrownBy(() -> shards.admin().removeShard(S2))
                .isInstanceOf(org.atomicshards.hibernate.admin.ShardStillOwnsDataException.class)
                .hasMessageContaining(User.class.getName() + " (joining)");
        shards.admin().resume();
        acknowledged.assertEachOnceOnItsShard(shards);
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsRecorded() {
        seed(4);
        assertThatThrownBy(() -> shards.admin().addRingMember(User.class, ShardId.of("s9")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s9'");
        assertThatThrownBy(() -> shards.admin().addRingMember(org.atomicshards.hibernate.model.Status.class, S2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not the root");
        assertThat(shards.admin().removeRingMember(User.class, S2).units()).isZero(); // not a member
        shards.admin().removeRingMember(User.class, S0);
        assertThatThrownBy(() -> shards.admin().removeRingMember(User.class, S1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("last member")
                .hasMessageContaining("addRingMember");
        assertThat(shards.admin().operations()).isEmpty();
        acknowledged.assertEachOnceOnItsShard(shards);
        shards.close();
        catalog = dbs.newCatalogUrl();
        shards = Fixtures.builderWithFirst(dbs, VIRTUAL_SHARDS, 2, catalog).build(); // User by hash
        assertThatThrownBy(() -> shards.admin().addRingMember(User.class, S1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("policy 'hash'")
                .hasMessageContaining("ShardAdmin.move");
        assertThat(shards.admin().operations()).isEmpty();
    }
}
