package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.atomicshards.hibernate.AdversarialWorkloads.Path;
import org.atomicshards.hibernate.AdversarialWorkloads.Read;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.ReshardingConflictException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 53's adversarial suite, Jepsen-style, with the same contract on every database. Three instances share one
 * catalog: {@code a} and {@code b} refresh their maps every half second, {@code stale} every ten minutes (and fences
 * every unit of work, as an instance that hardly ever refreshes cannot give write leases back). While a nemesis splits
 * a shard onto a shard added at run time, races two operators, kills movers at every step and pauses movers past their
 * lease (a seeded choice of steps, every step on the real databases), clients write in every way the library fences
 * ({@link AdversarialWorkloads.Path}) and read by id in every way ({@link AdversarialWorkloads.Read}). Each write gives
 * its units a new version from one clock ({@link VersionLedger}); it counts once its commit returned.
 *
 * <p>The checks: every read keeps the ledger's bounds (a version at least the one acknowledged before it began, one a
 * write started; never nothing; a fan-out count of users exact, of statuses within the acknowledged and started ones);
 * no client fails in a way the library does not document as retryable; of two operators racing, exactly one operation
 * is recorded and the other is refused with {@link ReshardingConflictException}; of a killed run and a paused one
 * exactly one run finishes the operation; and at the end an auditor reading every database over JDBC
 * ({@link ReshardingAuditor}) finds every unit once, on the shard the catalog's latest map names, with its last
 * acknowledged version and statuses, and no staging, change log, arm or unfinished operation left behind.
 *
 * <p>The seed (of the workloads, the nemesis's choices and the steps) is printed; {@code -Datomicshards.adversarial.seed}
 * fixes it. The thread interleaving differs from run to run.
 */
abstract class AdversarialReshardingContract {

    static final int VIRTUAL_SHARDS = 16;
    static final List<String> STEPS = List.of("before-copy", "mid-copy", "after-copy", "after-verify", "before-switch",
            "after-switch", "after-promote", "mid-delete", "after-release");
    private static final int TEN_MINUTES = 600_000;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S2 = ShardId.of("s2");

    protected abstract DatabaseKind kind();

    /** The {@code create database} options of the shards (none: the server's defaults). */
    protected String createOptions() {
        return "";
    }

    /** How many units the clients write (keys 1..n), about 30 per virtual shard at 480. */
    protected int units() {
        return 480;
    }

    /** The steps at which a mover is killed: every one. */
    protected List<String> killSteps(Random random) {
        return STEPS;
    }

    /** The steps at which a mover is paused past its lease: every one. */
    protected List<String> pauseSteps(Random random) {
        return STEPS;
    }

    /**
     * How many times each race of two operators is run. One race rarely overlaps the two recordings: with the lock that
     * records operations one at a time taken out, 8 rounds on H2 let two operations into one target, which then shared
     * its staging tables ("Table AS_IN_STATUS not found").
     */
    protected int raceRounds() {
        return 6;
    }

    /** The lease of a run that the nemesis pauses. */
    protected Duration pausedLease() {
        return Duration.ofMillis(1_000);
    }

    private final long seed = Long.getLong("atomicshards.adversarial.seed", new SecureRandom().nextLong());
    private ShardDatabases dbs;
    private String catalog;
    private ShardedSessionFactory a;
    private ShardedSessionFactory b;
    private ShardedSessionFactory stale;
    private final List<String> log = new ArrayList<>();

    @BeforeEach
    void boot() {
        System.out.println("ADVERSARIAL " + kind() + " seed " + seed + " (-Datomicshards.adversarial.seed=" + seed
                + " runs the same choices again)");
        dbs = ShardDatabases.create(kind(), 3, createOptions());
        catalog = dbs.newCatalogUrl();
        a = instance("create", 500).build();
        b = instance("none", 500).build();
        stale = instance("none", TEN_MINUTES).property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build();
    }

    /** An instance on s0 and s1 (s2 is added at run time), on the shared catalog. */
    private ShardedSessionFactoryBuilder instance(String schemaAction, int refreshMillis) {
        return Fixtures.builderWithFirst(dbs, VIRTUAL_SHARDS, 2, catalog).schemaAction(schemaAction)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, refreshMillis);
    }

    @AfterEach
    void shutDown() {
        MoveFaults.install(null);
        try {
            for (ShardedSessionFactory factory : new ShardedSessionFactory[] {stale, b, a}) {
                if (factory != null) {
                    factory.close();
                }
            }
        } finally {
            dbs.close();
        }
    }

    @Test
    void nothingAcknowledgedIsLostAndNoReadBreaksItsBoundsWhateverTheNemesisDoes() throws Exception {
        long started = System.nanoTime();
        VersionLedger ledger = seed(units());
        AdversarialWorkloads.Stats stats = new AdversarialWorkloads.Stats();
        current = stats;
        List<Thread> clients = new ArrayList<>();
        for (Path path : Path.values()) {
            ShardedSessionFactory on = path == Path.STALE_INSTANCE ? stale
                    : path.ordinal() % 2 == 0 ? a : b;
            clients.add(new Thread(new AdversarialWorkloads.Writer(path, on, ledger, stats, seed), "writer-" + path));
        }
        clients.add(new Thread(new AdversarialWorkloads.Reader("a", a, ledger, stats, seed), "reader-a"));
        clients.add(new Thread(new AdversarialWorkloads.Reader("stale", stale, ledger, stats, seed), "reader-stale"));
        Random random = new Random(seed);
        List<String> kills = killSteps(random);
        List<String> pauses = pauseSteps(random);
        slowMover = new Random(seed + 1);
        faults(null);
        clients.forEach(Thread::start);
        try {
            Thread.sleep(500);
            // without bulk writes, which would make every move copy all units of its virtual shards again
            stats.quietBulk.set(true);
            split();
            stats.quietBulk.set(false);
            for (int round = 0; round < raceRounds(); round++) {
                raceOnTheSameVirtualShards(random);
                raceIntoTheSameTarget(random);
            }
            boolean aMoves = true;
            for (String step : kills) {
                stats.quietBulk.set(aMoves); // every other one without bulk writes
                killAt(step, aMoves ? a : b, aMoves ? b : a, random);
                aMoves = !aMoves;
            }
            for (String step : pauses) {
                stats.quietBulk.set(aMoves);
                pauseAt(step, aMoves ? a : b, aMoves ? b : a, random);
                aMoves = !aMoves;
            }
            stats.quietBulk.set(false);
            Thread.sleep(500);
        } finally {
            MoveFaults.install(null);
            stats.stop.set(true);
            for (Thread client : clients) {
                client.join(60_000);
            }
        }
        assertThat(clients).as("every client stopped").noneMatch(Thread::isAlive);

        String run = kind() + " seed " + seed + ": " + stats;
        System.out.println("ADVERSARIAL " + run + "; nemesis: " + log + "; " + Duration.ofNanos(System.nanoTime()
                - started).toMillis() + " ms");
        // all of them, so that a failure shows every check that failed, the audit too
        SoftAssertions checks = new SoftAssertions();
        checks.assertThat(ledger.wrongAnswers).as(ledger.wrongCount + " reads that broke their bounds (the first "
                + "100); " + run).isEmpty();
        checks.assertThat(stats.failures).as("failures; " + run).isEmpty();
        for (Path path : Path.values()) {
            checks.assertThat(stats.acknowledgedWhileOperating.get(path).get()).as(path + " writes acknowledged while "
                    + "operations ran; " + run).isGreaterThanOrEqualTo(3);
        }
        for (Read read : Read.values()) {
            checks.assertThat(stats.readsWhileOperating.get(read).get()).as(read + " reads while operations ran; " + run)
                    .isPositive();
        }
        checks.assertThat(stats.longHeldWhileOperating.get()).as("long transactions held while an operation ran; "
                + run).isPositive();
        checks.assertThat(new ReshardingAuditor(dbs, catalog).problems(ledger)).as("the audit; " + run).isEmpty();
        checks.assertAll();
        assertThat(a.admin().operations()).isEmpty();
        refresh(a);
        for (ShardId shard : List.of(S0, ShardId.of("s1"), S2)) {
            assertThat(a.directory().virtualShardsOf(shard)).as("virtual shards of " + shard).isNotEmpty();
        }
    }

    /**
     * The suite's checks can fail: a lost acknowledged write, a unit on two shards, a unit gone, a status nobody wrote
     * and an operation stopped half way (its staging, its claims and its journal entry) are each reported by the
     * auditor, and a read of the lost write or of the gone unit breaks its bounds.
     */
    @Test
    void theAuditorAndTheReadBoundsReportWhatTheyMust() throws Exception {
        VersionLedger ledger = seed(40);
        assertThat(new ReshardingAuditor(dbs, catalog).problems(ledger)).as("as seeded").isEmpty();
        List<VersionLedger.Unit> units = List.copyOf(ledger.units().values());
        VersionLedger.Unit lost = units.get(0);
        VersionLedger.Unit doubled = units.get(1);
        VersionLedger.Unit gone = units.get(2);
        VersionLedger.Unit strayStatus = units.get(3);
        long version = ledger.nextVersion();
        ledger.started(List.of(lost), version);
        ledger.acknowledged(List.of(lost), version, false); // acknowledged, but never written
        String owner = a.shardFor(User.class, doubled.key).orElseThrow().name();
        String other = owner.equals("s0") ? "s1" : "s0";
        try (Connection c = dbs.connect(other);
             PreparedStatement ps = c.prepareStatement("insert into app_user (id, email) values (?, 'v0')")) {
            ps.setLong(1, doubled.key);
            assertThat(ps.executeUpdate()).isOne();
        }
        a.inUnit(User.class, gone.key, session -> {
            User user = session.find(User.class, gone.key);
            session.createMutationQuery("delete from Status s where s.user.id = :id").setParameter("id", gone.key)
                    .executeUpdate();
            session.remove(user);
        });
        a.inUnit(User.class, strayStatus.key, session -> session.persist(
                new Status(session.find(User.class, strayStatus.key), "v999999")));
        int bucket = a.directory().virtualShardsOf(S0).get(0);
        MoveFaults.install(step -> {
            if (step.equals("after-copy")) {
                throw new IllegalStateException("injected crash at after-copy");
            }
        });
        try {
            a.admin().move(Set.of(bucket), ShardId.of("s1"), MoveOptions.defaults());
        } catch (MoveFailedException expected) {
            // stopped half way, as intended
        }
        MoveFaults.install(null);

        List<String> problems = new ReshardingAuditor(dbs, catalog).problems(ledger);
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith(lost.toString())
                .endsWith("holds 'v0': an acknowledged write was lost"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith(doubled.toString())
                .contains("but the map names " + owner));
        assertThat(problems).contains(gone + " is on no shard");
        assertThat(problems).contains(strayStatus + " has status 'v999999', which no write of it made");
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("the journal holds operation"));
        assertThat(problems).anySatisfy(p -> assertThat(p).startsWith("shard s1 has staging tables left"));
        assertThat(problems).anySatisfy(p -> assertThat(p).isEqualTo("shard s0 left virtual shard " + bucket
                + " MOVING"));
        assertThat(ledger.checkRead("find", lost, lost.acknowledged(), a.find(User.class, lost.key))).isFalse();
        assertThat(ledger.checkRead("find", gone, gone.acknowledged(), a.find(User.class, gone.key))).isFalse();
        assertThat(ledger.wrongAnswers).hasSize(2);
        assertThat(ledger.wrongAnswers.get(0)).contains("older than v" + version);
        assertThat(ledger.wrongAnswers.get(1)).contains("found nothing");
    }

    /** Seeds users {@code 1..count} with {@code "v0"} and a status {@code "seeded"} each, and a ledger of them. */
    private VersionLedger seed(int count) {
        VersionLedger ledger = new VersionLedger();
        for (long key = 1; key <= count; key++) {
            long k = key;
            a.inUnit(User.class, k, session -> {
                User user = new User(k, VersionLedger.email(0));
                session.persist(user);
                session.persist(new Status(user, "seeded"));
            });
            ledger.seeded(key, Fixtures.virtualShardOf(a, key));
        }
        return ledger;
    }

    /** Adds s2 and moves the upper half of s0's virtual shards there. */
    private void split() {
        ShardDatabase s2 = dbs.shards().get(2);
        a.admin().addShard(s2.id(), s2.url(), s2.user(), s2.password());
        MoveReport report = operate(() -> a.admin().split(S0, S2, options()));
        assertThat(report.units()).as("the split moved units").isPositive();
        log.add("split s0 -> s2 " + report.virtualShards() + " in " + lastMillis + " ms");
    }

    /**
     * Two instances start operations on the same virtual shards (into two different shards) at the same moment:
     * exactly one is recorded and runs, the other is refused naming it.
     */
    private void raceOnTheSameVirtualShards(Random random) throws Exception {
        refresh(a);
        ShardId source = shardWithMost(random);
        List<ShardId> targets = new ArrayList<>(a.shards());
        targets.remove(source);
        Set<Integer> contested = pick(source, 2, random);
        race("same virtual shards " + contested, () -> a.admin().move(contested, targets.get(0), options()),
                () -> b.admin().move(contested, targets.get(1), options()));
    }

    /**
     * Two instances start operations into the same shard (of different virtual shards) at the same moment: exactly
     * one is recorded and runs, the other is refused naming it.
     */
    private void raceIntoTheSameTarget(Random random) throws Exception {
        refresh(a);
        ShardId target = a.shards().get(random.nextInt(a.shards().size()));
        List<Integer> candidates = new ArrayList<>();
        for (ShardId shard : a.shards()) {
            if (!shard.equals(target) && a.directory().virtualShardsOf(shard).size() > 2) {
                candidates.addAll(a.directory().virtualShardsOf(shard));
            }
        }
        java.util.Collections.shuffle(candidates, random);
        Set<Integer> first = Set.of(candidates.get(0));
        Set<Integer> second = Set.of(candidates.get(1));
        race("same target " + target + " (" + first + " and " + second + ")",
                () -> a.admin().move(first, target, options()), () -> b.admin().move(second, target, options()));
    }

    private void race(String what, Supplier<MoveReport> first, Supplier<MoveReport> second) throws Exception {
        long recordedBefore = operationsRecorded();
        CyclicBarrier start = new CyclicBarrier(2);
        // the operation recorded waits before its copy until the other was refused (at most 10 s), so that it cannot
        // end before the other is recorded: two operations recorded would both wait, and both run
        CountDownLatch refused = new CountDownLatch(1);
        faults(step -> {
            if (step.equals("before-copy")) {
                await(refused, 10);
            }
        });
        ExecutorService operators = Executors.newFixedThreadPool(2);
        List<CompletableFuture<MoveReport>> runs = new ArrayList<>();
        for (Supplier<MoveReport> operation : List.of(first, second)) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await(30, TimeUnit.SECONDS);
                    return operation.get();
                } catch (ReshardingConflictException e) {
                    refused.countDown();
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, operators));
        }
        List<MoveReport> done = new ArrayList<>();
        List<Throwable> failed = new ArrayList<>();
        try {
            operate(() -> {
                for (CompletableFuture<MoveReport> run : runs) {
                    try {
                        done.add(run.get(120, TimeUnit.SECONDS));
                    } catch (ExecutionException e) {
                        failed.add(e.getCause());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                return null;
            });
        } finally {
            faults(null);
            operators.shutdownNow();
        }
        log.add("race on " + what + ": " + done.stream().map(MoveReport::operationId).toList() + " ran, "
                + failed.stream().map(Throwable::getClass).map(Class::getSimpleName).toList() + " in " + lastMillis
                + " ms");
        assertThat(done).as("operations that ran, racing on " + what + " (seed " + seed + ")").hasSize(1);
        assertThat(failed).as("racing on " + what).singleElement().isInstanceOf(ReshardingConflictException.class)
                .extracting(e -> ((ReshardingConflictException) e).operationInProgress())
                .isEqualTo(done.get(0).operationId());
        assertThat(operationsRecorded()).as("operations recorded, racing on " + what).isEqualTo(recordedBefore + 1);
    }

    /**
     * A run of {@code mover} throws at {@code step} (a crash that the run still records); {@code other} resumes the
     * operation and finishes it.
     */
    private void killAt(String step, ShardedSessionFactory mover, ShardedSessionFactory other, Random random) {
        refresh(a);
        ShardId source = shardWithMost(random);
        ShardId target = anotherShard(source, random);
        Set<Integer> moving = pick(source, 1 + random.nextInt(2), random);
        Thread run = Thread.currentThread();
        AtomicBoolean fired = new AtomicBoolean();
        faults(name -> {
            if (name.equals(step) && Thread.currentThread() == run && fired.compareAndSet(false, true)) {
                throw new IllegalStateException("injected crash at " + step);
            }
        });
        Throwable stopped = null;
        try {
            operate(() -> mover.admin().move(moving, target, options()));
        } catch (RuntimeException e) {
            stopped = e;
        } finally {
            faults(null);
        }
        assertThat(fired).as("the run reached " + step).isTrue();
        assertThat(stopped).as("the run killed at " + step).isInstanceOf(MoveFailedException.class)
                .hasMessageContaining("injected crash at " + step);
        long killed = lastMillis;
        List<MoveReport> resumed = operate(() -> other.admin().resume());
        assertThat(resumed).as("the other instance finished the operation killed at " + step).hasSize(1);
        assertThat(other.admin().operations()).as("after the resume of " + step).isEmpty();
        log.add("killed at " + step + " (" + moving + " " + source + " -> " + target + ") in " + killed
                + " ms, resumed in " + lastMillis + " ms");
    }

    /**
     * A run of {@code mover} pauses at {@code step} with its heartbeat cut off until its lease lapsed twice; {@code
     * other} resumes the operation, and the paused run goes on: it must find it lost the operation, and the resume
     * finish it.
     */
    private void pauseAt(String step, ShardedSessionFactory mover, ShardedSessionFactory other, Random random)
            throws Exception {
        refresh(a);
        ShardId source = shardWithMost(random);
        ShardId target = anotherShard(source, random);
        Set<Integer> moving = pick(source, 1 + random.nextInt(2), random);
        AtomicBoolean heartbeatsCutOff = new AtomicBoolean();
        AtomicReference<Thread> pausedRun = new AtomicReference<>();
        CountDownLatch paused = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        faults(name -> {
            if (name.equals("heartbeat") && heartbeatsCutOff.get()) {
                throw new IllegalStateException("cut off from the catalog");
            }
            if (name.equals(step) && Thread.currentThread() == pausedRun.get() && paused.getCount() > 0) {
                heartbeatsCutOff.set(true);
                paused.countDown();
                await(goOn, 60);
            }
        });
        ExecutorService runs = Executors.newFixedThreadPool(2);
        try {
            operate(() -> {
                CompletableFuture<MoveReport> first = CompletableFuture.supplyAsync(() -> {
                    pausedRun.set(Thread.currentThread());
                    return mover.admin().move(moving, target, options().lease(pausedLease()));
                }, runs);
                try {
                    assertThat(paused.await(60, TimeUnit.SECONDS)).as("the run reached " + step).isTrue();
                    Thread.sleep(pausedLease().toMillis() * 2); // its lease lapses, and its heartbeat gives up
                    heartbeatsCutOff.set(false);
                    CompletableFuture<List<MoveReport>> takeOver = CompletableFuture.supplyAsync(
                            () -> other.admin().resume(), runs);
                    Thread.sleep(300); // the other run claims; then the first wakes up
                    goOn.countDown();
                    List<MoveReport> resumed = takeOver.get(120, TimeUnit.SECONDS);
                    assertThat(resumed).as("the resume finished the operation paused at " + step).hasSize(1);
                    Throwable firstEnded = null;
                    try {
                        first.get(120, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        firstEnded = e.getCause();
                    }
                    assertThat(firstEnded).as("the run paused at " + step + " went on").isInstanceOf(
                            MoveFailedException.class).hasMessageContaining("no longer holds it");
                } catch (InterruptedException | ExecutionException | java.util.concurrent.TimeoutException e) {
                    throw new IllegalStateException(e);
                } finally {
                    goOn.countDown();
                }
                return null;
            });
        } finally {
            faults(null);
            runs.shutdownNow();
        }
        assertThat(other.admin().operations()).as("after the pause at " + step).isEmpty();
        log.add("paused at " + step + " (" + moving + " " + source + " -> " + target + "), taken over, in "
                + lastMillis + " ms");
    }

    /**
     * Installs {@code hook} (null: none) as the move steps' hook, behind the slow mover of the main test: a mover that
     * dawdles 100 to 300 ms (seeded) after verifying each batch in full and before freezing it, while the clients write
     * on, as a mover does when the machine or its catalog is slow. Every write of that window must reach the target
     * through the change log.
     */
    private void faults(Consumer<String> hook) {
        Random slow = slowMover;
        MoveFaults.install(step -> {
            if (slow != null && step.equals("after-verify")) {
                int millis;
                synchronized (slow) {
                    millis = 100 + slow.nextInt(200);
                }
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (hook != null) {
                hook.accept(step);
            }
        });
    }

    private <T> T operate(Supplier<T> operation) {
        statsOperating(true);
        long started = System.nanoTime();
        try {
            return operation.get();
        } finally {
            statsOperating(false);
            lastMillis = (System.nanoTime() - started) / 1_000_000;
        }
    }

    private AdversarialWorkloads.Stats current;
    /** The seeded delays of the slow mover; null outside the main test. */
    private Random slowMover;
    /** How long the last {@link #operate} took. */
    private long lastMillis;

    private void statsOperating(boolean on) {
        if (current != null) {
            current.operating.set(on);
        }
    }

    private static MoveOptions options() {
        return MoveOptions.defaults().virtualShardsPerBatch(1).unitsPerChunk(10);
    }

    /** Of the shards holding the most virtual shards, one at random. */
    private ShardId shardWithMost(Random random) {
        int most = a.shards().stream().mapToInt(s -> a.directory().virtualShardsOf(s).size()).max().orElseThrow();
        List<ShardId> candidates = a.shards().stream()
                .filter(s -> a.directory().virtualShardsOf(s).size() == most).toList();
        return candidates.get(random.nextInt(candidates.size()));
    }

    private ShardId anotherShard(ShardId source, Random random) {
        List<ShardId> others = new ArrayList<>(a.shards());
        others.remove(source);
        return others.get(random.nextInt(others.size()));
    }

    /** {@code count} virtual shards of {@code source}, at random. */
    private Set<Integer> pick(ShardId source, int count, Random random) {
        List<Integer> owned = new ArrayList<>(a.directory().virtualShardsOf(source));
        java.util.Collections.shuffle(owned, random);
        return new TreeSet<>(owned.subList(0, Math.min(count, owned.size() - 1)));
    }

    private static void refresh(ShardedSessionFactory factory) {
        ((CachedShardDirectory) factory.directory()).refresh();
    }

    /** How many operations the catalog's journal ever recorded. */
    private long operationsRecorded() throws SQLException {
        try (Connection c = DriverManager.getConnection(catalog);
             PreparedStatement ps = c.prepareStatement("select count(*) from as_move");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void await(CountDownLatch latch, int seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
