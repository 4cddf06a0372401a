package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run of a move that is paused past its lease at any step (its heartbeat cut off from the catalog too, as in a long
 * garbage collection or a network partition) loses the operation to another instance's resume, and then can no longer
 * act: exactly one run finishes the move, the other stops at its next step, and no acknowledged write is lost.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LostOperationContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final Duration LEASE = Duration.ofMillis(1_000);

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

    @ParameterizedTest(name = "paused at {0}")
    @ValueSource(strings = {"before-copy", "mid-copy", "after-copy", "after-verify", "before-switch", "after-switch",
            "after-promote", "mid-delete", "after-release"})
    void aRunPausedPastItsLeaseLosesTheOperationAndExactlyOneRunFinishesIt(String step) throws Exception {
        String catalog = dbs.newCatalogUrl();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (ShardedSessionFactory first = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory second = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            List<Long> keys = usersOnTwoVirtualShards(first);
            Set<Integer> moving = Set.of(Fixtures.virtualShardOf(first, keys.get(0)),
                    Fixtures.virtualShardOf(first, keys.get(keys.size() - 1)));

            AtomicBoolean heartbeatsCutOff = new AtomicBoolean();
            AtomicReference<Thread> pausedRun = new AtomicReference<>();
            CountDownLatch paused = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            MoveFaults.install(name -> {
                if (name.equals("heartbeat") && heartbeatsCutOff.get()) {
                    throw new IllegalStateException("cut off from the catalog");
                }
                if (name.equals(step) && Thread.currentThread() == pausedRun.get() && paused.getCount() > 0) {
                    heartbeatsCutOff.set(true);
                    paused.countDown();
                    await(goOn, 60);
                }
            });
            Map<Long, String> acknowledged = new ConcurrentHashMap<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            CompletableFuture<?> writer = CompletableFuture.runAsync(() -> write(first, keys, acknowledged, writing),
                    threads);
            CompletableFuture<MoveReport> firstRun = CompletableFuture.supplyAsync(() -> {
                pausedRun.set(Thread.currentThread());
                return first.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(1).lease(LEASE));
            }, threads);
            assertThat(paused.await(60, TimeUnit.SECONDS)).as("the first run reached " + step).isTrue();

            Thread.sleep(LEASE.toMillis() * 2); // its lease lapses, and its heartbeat gives up
            heartbeatsCutOff.set(false);
            CompletableFuture<List<MoveReport>> takeOver = CompletableFuture.supplyAsync(
                    () -> second.admin().resume(), threads);
            Thread.sleep(300); // the second run claims; the first wakes up (where it paused inside the release's
            goOn.countDown();  // transaction, it holds locks the second waits for)
            List<MoveReport> resumed = takeOver.get(60, TimeUnit.SECONDS);

            assertThat(resumed).as("the second run finished the move").hasSize(1);
            assertThatThrownBy(() -> unwrap(firstRun)).isInstanceOf(MoveFailedException.class)
                    .hasMessageContaining("no longer holds it");
            writing.set(false);
            writer.get(60, TimeUnit.SECONDS);

            assertMovedLosingNothing(second, keys, acknowledged);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A run paused inside a step, after it last found its operation held and before its write on a shard, wakes up
     * after another run resumed the operation and verified the batch under its freeze: its write (emptying the
     * target's staging and re-claiming the batch, or copying rows it read before the pause) is refused on the shard,
     * so the run that holds the operation promotes what it verified and no acknowledged write is lost.
     */
    @ParameterizedTest(name = "paused at {0}")
    @ValueSource(strings = {"start-copy", "copy-write"})
    void aRunPausedInsideAStepCannotWriteOnAShardOnceAnotherRunHoldsTheOperation(String step) throws Exception {
        String catalog = dbs.newCatalogUrl();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try (ShardedSessionFactory first = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory second = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            List<Long> keys = usersOnTwoVirtualShards(first);
            Set<Integer> moving = Set.of(Fixtures.virtualShardOf(first, keys.get(0)),
                    Fixtures.virtualShardOf(first, keys.get(keys.size() - 1)));

            AtomicBoolean heartbeatsCutOff = new AtomicBoolean();
            AtomicReference<Thread> firstThread = new AtomicReference<>();
            CountDownLatch firstPaused = new CountDownLatch(1);
            CountDownLatch firstGoesOn = new CountDownLatch(1);
            CountDownLatch secondVerified = new CountDownLatch(1);
            CountDownLatch secondGoesOn = new CountDownLatch(1);
            MoveFaults.install(name -> {
                if (name.equals("heartbeat") && heartbeatsCutOff.get()) {
                    throw new IllegalStateException("cut off from the catalog");
                }
                boolean firstRun = Thread.currentThread() == firstThread.get();
                if (name.equals(step) && firstRun && firstPaused.getCount() > 0) {
                    heartbeatsCutOff.set(true);
                    firstPaused.countDown();
                    await(firstGoesOn, 60);
                } else if (name.equals("before-switch") && !firstRun && secondVerified.getCount() > 0) {
                    secondVerified.countDown();
                    await(secondGoesOn, 60);
                }
            });
            Map<Long, String> acknowledged = new ConcurrentHashMap<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            CompletableFuture<?> writer = CompletableFuture.runAsync(() -> write(first, keys, acknowledged, writing),
                    threads);
            CompletableFuture<MoveReport> firstRun = CompletableFuture.supplyAsync(() -> {
                firstThread.set(Thread.currentThread());
                return first.admin().move(moving, S1, MoveOptions.defaults().virtualShardsPerBatch(1).lease(LEASE));
            }, threads);
            assertThat(firstPaused.await(60, TimeUnit.SECONDS)).as("the first run reached " + step).isTrue();
            Thread.sleep(LEASE.toMillis() * 2); // its lease lapses, and its heartbeat gives up
            heartbeatsCutOff.set(false);
            CompletableFuture<List<MoveReport>> takeOver = CompletableFuture.supplyAsync(
                    () -> second.admin().resume(), threads);
            assertThat(secondVerified.await(60, TimeUnit.SECONDS)).as("the second run verified the batch frozen")
                    .isTrue();

            writing.set(false); // no later write hides what the first run does now
            firstGoesOn.countDown(); // the first run wakes up inside its step, under the second's verified freeze
            assertThatThrownBy(() -> unwrap(firstRun)).isInstanceOf(MoveFailedException.class)
                    .hasMessageContaining("no longer holds it");
            secondGoesOn.countDown();
            assertThat(takeOver.get(60, TimeUnit.SECONDS)).as("the second run finished the move").hasSize(1);
            writer.get(60, TimeUnit.SECONDS);

            assertMovedLosingNothing(second, keys, acknowledged);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * A run stuck between promoting a batch and releasing it (alive, its lease renewed) leaves the batch claimed by
     * both shards: fan-outs release it themselves and answer, instead of failing until the run goes on.
     */
    @Test
    void fanOutsAnswerWhileTheRunHoldingAPromotedBatchIsStuck() throws Throwable {
        String catalog = dbs.newCatalogUrl();
        ExecutorService threads = Executors.newFixedThreadPool(1);
        try (ShardedSessionFactory first = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build();
             ShardedSessionFactory second = Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog).build()) {
            List<Long> keys = usersOnTwoVirtualShards(first);
            Set<Integer> moving = Set.of(Fixtures.virtualShardOf(first, keys.get(0)),
                    Fixtures.virtualShardOf(first, keys.get(keys.size() - 1)));
            long before = second.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
            CountDownLatch stuck = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            MoveFaults.install(name -> {
                if (name.equals("after-promote") && stuck.getCount() > 0) {
                    stuck.countDown();
                    await(goOn, 60);
                }
            });
            CompletableFuture<MoveReport> run = CompletableFuture.supplyAsync(() -> first.admin().move(moving, S1,
                    MoveOptions.defaults()), threads);
            assertThat(stuck.await(60, TimeUnit.SECONDS)).isTrue();
            try {
                assertThat(second.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                        .as("the fan-out answered, with every user once").isEqualTo(before);
                for (long key : keys) {
                    assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("released from s0").isFalse();
                }
            } finally {
                goOn.countDown();
            }
            assertThat(unwrap(run)).as("the stuck run went on and finished").isNotNull();
            assertThat(first.admin().operations()).isEmpty();
            for (long key : keys) {
                assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
            }
            assertThat(second.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(before);
        } finally {
            threads.shutdownNow();
        }
    }

    /** The operation ended, every user lives on s1 only, and holds its last acknowledged write. */
    private void assertMovedLosingNothing(ShardedSessionFactory factory, List<Long> keys,
                                          Map<Long, String> acknowledged) {
        assertThat(factory.admin().operations()).as("nothing unfinished").isEmpty();
        for (long key : keys) {
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("user " + key + " on s0").isFalse();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).as("user " + key + " on s1").isTrue();
        }
        acknowledged.forEach((key, email) -> assertThat(factory.find(User.class, key).getEmail())
                .as("the last acknowledged write of user " + key).isEqualTo(email));
    }

    /** Ten users on each of two virtual shards of s0. */
    private static List<Long> usersOnTwoVirtualShards(ShardedSessionFactory factory) {
        List<Long> keys = new ArrayList<>();
        long key = Fixtures.keyOn(factory, S0, 1_000_000);
        int firstBucket = Fixtures.virtualShardOf(factory, key);
        int secondBucket = -1;
        int[] counts = new int[2];
        for (long k = key; counts[0] < 10 || counts[1] < 10; k++) {
            if (!factory.shardFor(User.class, k).orElseThrow().equals(S0)) {
                continue;
            }
            int bucket = Fixtures.virtualShardOf(factory, k);
            if (bucket != firstBucket && secondBucket < 0) {
                secondBucket = bucket;
            }
            int slot = bucket == firstBucket ? 0 : bucket == secondBucket ? 1 : -1;
            if (slot >= 0 && counts[slot] < 10) {
                counts[slot]++;
                keys.add(k);
            }
        }
        keys.sort((a, b) -> Integer.compare(Fixtures.virtualShardOf(factory, a), Fixtures.virtualShardOf(factory, b)));
        for (long k : keys) {
            factory.inUnit(User.class, k, session -> session.persist(new User(k, "seeded")));
        }
        return keys;
    }

    /** Renames the users in turn until told to stop, recording each rename once its unit of work returned. */
    private static void write(ShardedSessionFactory factory, List<Long> keys, Map<Long, String> acknowledged,
                              AtomicBoolean writing) {
        for (int round = 0; writing.get(); round++) {
            long key = keys.get(round % keys.size());
            String email = "write " + round;
            try {
                factory.inUnit(User.class, key, session -> session.find(User.class, key).setEmail(email));
                acknowledged.put(key, email);
            } catch (ShardMovingException | ShardUnavailableException refused) {
                // refused before anything was written: not acknowledged
            }
        }
    }

    private static <T> T unwrap(CompletableFuture<T> future) throws Throwable {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
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
