package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ReplicaServers;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Reads on real replicas (a PostgreSQL streaming standby, a MariaDB replica; {@code .ci/replicas} starts them):
 * read-only work and fan-outs that ask for replicas run there and answer as the primaries do; a replica that lags
 * beyond the maximum, is stopped, or was promoted is skipped for the primary and counted; and while virtual shards
 * move, a fan-out over replicas returns every unit once and a read by key finds a moved unit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReplicaReadsContract {

    private static final int VIRTUAL_SHARDS = 16;
    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final Duration CATCH_UP = Duration.ofSeconds(30);

    protected abstract DatabaseKind kind();

    /** The control script's commands that stop and start this kind's replica server. */
    protected abstract String stopCommand();

    protected abstract String startCommand();

    /**
     * Whether a replica whose replay is paused still reports its lag: PostgreSQL's standby does (and is accepted under a
     * generous maximum, so the checks beyond the lag decide); MariaDB reports none while its SQL thread is stopped, so
     * it is skipped as lagging.
     */
    protected abstract boolean pausedReplicaReportsItsLag();

    /** Why a read skips the paused replica when a check beyond the lag, {@code reason}, refuses it. */
    private String skipOfAPausedReplica(String reason) {
        return pausedReplicaReportsItsLag() ? reason : "LAGGING";
    }

    private ShardDatabases dbs;
    private ReplicaServers replicas;
    private SimpleMeterRegistry meters;

    @BeforeAll
    void createDatabases() {
        assumeTrue(ReplicaServers.enabled(), "replica servers are started by .ci/replicas (atomicshards.it.replicas)");
        dbs = ShardDatabases.create(kind(), 2);
        replicas = ReplicaServers.of(kind());
    }

    @AfterAll
    void dropDatabases() {
        if (dbs != null) {
            dbs.close();
        }
    }

    private ShardedSessionFactory factory(long maxLagMillis) {
        return factory(maxLagMillis, false);
    }

    private ShardedSessionFactory factory(long maxLagMillis, boolean readYourWrites) {
        meters = new SimpleMeterRegistry();
        ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS)
                .catalog(dbs.newCatalogUrl())
                .property(ShardingSettings.REPLICA_READ_YOUR_WRITES, String.valueOf(readYourWrites))
                .property(ShardingSettings.REPLICA_READ_YOUR_WRITES_WAIT, "200")
                .property(ShardingSettings.REPLICA_READS, "true")
                .property(ShardingSettings.REPLICA_MAX_LAG, String.valueOf(maxLagMillis))
                .property(ShardingSettings.METER_REGISTRY, meters);
        replicas.settings(dbs).forEach(builder::property);
        return builder.build();
    }

    private Set<Long> seed(ShardedSessionFactory shards, int count, long firstKey) {
        Set<Long> keys = new HashSet<>();
        for (long key = firstKey; key < firstKey + count; key++) {
            long id = key;
            shards.inUnit(User.class, id, session -> session.persist(new User(id, "user" + id)));
            keys.add(id);
        }
        return keys;
    }

    private double counted(String meter, String reason) {
        Search search = meters.find(meter);
        if (reason != null) {
            search = search.tag("reason", reason);
        }
        return search.counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private int port(Session session) {
        return session.doReturningWork(connection -> ReplicaServers.serverPort(connection, kind()));
    }

    private List<Long> idsByFanOut(ShardedSessionFactory shards, boolean fromReplicas) {
        return shards.fanOut().createQuery("select u.id from User u order by u.id", Long.class)
                .setReadFromReplicas(fromReplicas).getResultList();
    }

    @Test
    void readOnlyWorkAndFanOutsAskingForReplicasReadThereAndAnswerAsThePrimariesDo() {
        try (ShardedSessionFactory shards = factory(60_000)) {
            Set<Long> keys = seed(shards, 40, 1_000);
            replicas.awaitCaughtUp(CATCH_UP);

            long onS0 = Fixtures.rowsOn(dbs, "s0", "app_user");
            try (Session session = shards.openReadOnlySession(S0)) {
                assertThat(replicas.isReplicaPort(port(session))).as("on the replica").isTrue();
                assertThat(session.createQuery("select count(u) from User u", Long.class).getSingleResult())
                        .isEqualTo(onS0);
            }
            long key = keys.iterator().next();
            String email = shards.readInUnit(User.class, key, session -> replicas.isReplicaPort(port(session))
                    ? session.find(User.class, key).getEmail() : "read on the primary");
            assertThat(email).isEqualTo("user" + key);

            // an oracle of random query shapes: the same query on the primaries
            Random random = new Random(58);
            for (int i = 0; i < 20; i++) {
                long from = 1_000 + random.nextInt(40);
                int limit = 1 + random.nextInt(10);
                String hql = random.nextBoolean()
                        ? "select u.id from User u where u.id >= " + from + " order by u.id desc"
                        : "select u.id from User u where u.email like 'user1%' or u.id < " + from + " order by u.id";
                List<Long> onReplicas = shards.fanOut().createQuery(hql, Long.class).setReadFromReplicas(true)
                        .setMaxResults(limit).getResultList();
                List<Long> onPrimaries = shards.fanOut().createQuery(hql, Long.class).setMaxResults(limit)
                        .getResultList();
                assertThat(onReplicas).as(hql + " limit " + limit).isEqualTo(onPrimaries);
            }
            assertThat(idsByFanOut(shards, true)).containsExactlyElementsOf(keys.stream().sorted().toList());
            assertThat(counted("atomicshards.replica.reads", null)).as("reads counted on replicas").isPositive();
            assertThat(counted("atomicshards.replica.skipped", null)).as("no replica skipped").isZero();
            assertThat(shards.admin().replicas()).extracting(ReplicaStatus::shard, ReplicaStatus::name,
                    ReplicaStatus::state).containsExactly(tuple("s0", "r1", "UP"), tuple("s1", "r1", "UP"));
        }
    }

    @Test
    void aReplicaLaggingBeyondTheMaximumIsSkippedForThePrimaryAndCounted() throws InterruptedException {
        try (ShardedSessionFactory shards = factory(300)) {
            Set<Long> keys = seed(shards, 10, 2_000);
            replicas.awaitCaughtUp(CATCH_UP);
            replicas.pauseReplay();
            try {
                long late = Fixtures.keyOn(shards, S0, 2_100);
                shards.inUnit(User.class, late, session -> session.persist(new User(late, "late")));
                keys.add(late);
                Thread.sleep(600); // the replica has not applied the write for longer than the maximum lag

                try (Session session = shards.openReadOnlySession(S0)) {
                    assertThat(replicas.isReplicaPort(port(session))).as("on the primary").isFalse();
                    assertThat(session.find(User.class, late)).as("the write is read").isNotNull();
                }
                assertThat(idsByFanOut(shards, true)).containsExactlyElementsOf(keys.stream().sorted().toList());
                assertThat(counted("atomicshards.replica.skipped", "LAGGING")).isPositive();
                assertThat(meters.find("atomicshards.replica.lag").gauges()).isNotEmpty();
                assertThat(shards.admin().replicas()).extracting(ReplicaStatus::state).containsOnly("LAGGING");
            } finally {
                replicas.resumeReplay();
            }
            replicas.awaitCaughtUp(CATCH_UP);
        }
    }

    @Test
    void aStoppedReplicaIsSkippedForThePrimaryWithinTheReplicaTimeout() {
        try (ShardedSessionFactory shards = factory(60_000)) {
            Set<Long> keys = seed(shards, 10, 3_000);
            replicas.awaitCaughtUp(CATCH_UP);
            replicas.control(stopCommand());
            try {
                long started = System.nanoTime();
                try (Session session = shards.openReadOnlySession(S1)) {
                    assertThat(replicas.isReplicaPort(port(session))).isFalse();
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("within the replica timeout")
                        .isLessThan(Duration.ofSeconds(5));
                assertThat(idsByFanOut(shards, true)).containsExactlyElementsOf(keys.stream().sorted().toList());
                assertThat(counted("atomicshards.replica.skipped", "DOWN")).isPositive();
                assertThat(shards.admin().replicas()).extracting(ReplicaStatus::state).containsOnly("DOWN");
            } finally {
                replicas.control(startCommand());
            }
            replicas.awaitCaughtUp(CATCH_UP);
            try (Session session = shards.openReadOnlySession(S1)) {
                assertThat(session.createQuery("select count(u) from User u", Long.class).getSingleResult())
                        .isEqualTo(Fixtures.rowsOn(dbs, "s1", "app_user"));
            }
        }
    }

    /**
     * The replica stops applying changes, then half of s0's virtual shards move to s1: a fan-out over the replicas
     * (still accepted where the lag is known) answers from their snapshot before the move, every unit once; a read by
     * key of a moved unit skips s1's replica, which has not received it, and finds it on s1's primary. Once the replica catches up, both
     * read there.
     */
    @Test
    void whileTheReplicaHasNotReplayedAMoveAFanOutCountsEveryUnitOnceAndAMovedUnitIsFound() {
        try (ShardedSessionFactory shards = factory(600_000)) {
            Set<Long> keys = seed(shards, 40, 4_000);
            List<Long> sorted = keys.stream().sorted().toList();
            replicas.awaitCaughtUp(CATCH_UP);
            long moved = Fixtures.keyOn(shards, S0, 4_000);
            replicas.pauseReplay();
            try {
                List<Integer> half = shards.directory().virtualShardsOf(S0).stream().limit(4).toList();
                Set<Integer> moving = new HashSet<>(half);
                moving.add(Fixtures.virtualShardOf(shards, moved));
                shards.admin().move(moving, S1, MoveOptions.defaults());

                assertThat(idsByFanOut(shards, true)).as("every unit once").containsExactlyElementsOf(sorted);
                User found = shards.readInUnit(User.class, moved, session -> session.find(User.class, moved));
                assertThat(found).as("the moved unit").isNotNull();
                assertThat(counted("atomicshards.replica.skipped", skipOfAPausedReplica("BEHIND_MOVE"))).isPositive();
            } finally {
                replicas.resumeReplay();
            }
            replicas.awaitCaughtUp(CATCH_UP);
            assertThat(idsByFanOut(shards, true)).containsExactlyElementsOf(sorted);
            Boolean onReplica = shards.readInUnit(User.class, moved, session -> replicas.isReplicaPort(port(session))
                    && session.find(User.class, moved) != null);
            assertThat(onReplica).as("read on the caught-up replica").isTrue();
        }
    }

    @Test
    void fanOutsOverReplicasWhileVirtualShardsMoveBackAndForthNeverMissOrDoubleAUnit() throws InterruptedException {
        try (ShardedSessionFactory shards = factory(60_000)) {
            List<Long> sorted = seed(shards, 60, 5_000).stream().sorted().toList();
            replicas.awaitCaughtUp(CATCH_UP);
            AtomicBoolean moving = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
            List<Integer> answers = new ArrayList<>();
            Thread reader = new Thread(() -> {
                while (moving.get()) {
                    List<Long> ids = idsByFanOut(shards, true);
                    synchronized (answers) {
                        answers.add(ids.size());
                    }
                    if (!ids.equals(sorted)) {
                        wrong.add(ids.size() + " ids: " + ids);
                    }
                }
            });
            reader.start();
            try {
                Set<Integer> batch = new HashSet<>(shards.directory().virtualShardsOf(S0).stream().limit(3).toList());
                for (int round = 0; round < 3; round++) {
                    shards.admin().move(batch, S1, MoveOptions.defaults());
                    shards.admin().move(batch, S0, MoveOptions.defaults());
                }
            } finally {
                moving.set(false);
                reader.join();
            }
            assertThat(wrong).as("answers that missed or doubled a unit").isEmpty();
            assertThat(answers).as("fan-outs during the moves").isNotEmpty();
            assertThat(counted("atomicshards.replica.reads", null)).isPositive();
        }
    }

    /**
     * With read-your-writes, the thread that committed a write reads it even while the replica has not replayed it
     * (after waiting for the replica, from the primary), and reads it on the replica once replayed; another thread,
     * which wrote nothing, keeps reading the replica as it is.
     */
    @Test
    void withReadYourWritesAThreadReadsWhatItCommittedWhileOthersReadTheReplica() throws Exception {
        try (ShardedSessionFactory shards = factory(600_000, true)) {
            seed(shards, 5, 7_000);
            replicas.awaitCaughtUp(CATCH_UP);
            long key = Fixtures.keyOn(shards, S0, 7_100);
            replicas.pauseReplay();
            try {
                shards.inUnit(User.class, key, session -> session.persist(new User(key, "mine")));

                User mine = shards.readInUnit(User.class, key, session -> session.find(User.class, key));
                assertThat(mine).as("this thread's own write").isNotNull();
                assertThat(counted("atomicshards.replica.skipped", skipOfAPausedReplica("BEHIND_WRITES")))
                        .isPositive();
                assertThat(idsByFanOut(shards, true)).as("a fan-out of this thread").contains(key);

                if (pausedReplicaReportsItsLag()) {
                    var others = java.util.concurrent.Executors.newSingleThreadExecutor();
                    try {
                        Boolean staleOnReplica = others.submit(() -> {
                            try (Session session = shards.openReadOnlySession(S0)) {
                                return replicas.isReplicaPort(port(session))
                                        && session.find(User.class, key) == null;
                            }
                        }).get();
                        assertThat(staleOnReplica).as("another thread reads the replica as it is").isTrue();
                    } finally {
                        others.shutdown();
                    }
                }
            } finally {
                replicas.resumeReplay();
            }
            Boolean onReplica = shards.readInUnit(User.class, key, session -> replicas.isReplicaPort(port(session))
                    && session.find(User.class, key) != null);
            assertThat(onReplica).as("read on the replica once it replayed the write").isTrue();
        }
    }

    /**
     * A factory first used on new shard databases creates its tables on the primaries; a replica that has not
     * replayed them yet (here: paused) is skipped, and the reads answer from the primaries instead of failing.
     */
    @Test
    void aReplicaThatHasNotReplayedTheNewTablesIsSkippedInsteadOfFailingTheRead() {
        try (ShardDatabases fresh = ShardDatabases.create(kind(), 2)) {
            replicas.awaitCaughtUp(CATCH_UP);
            replicas.pauseReplay();
            try {
                meters = new SimpleMeterRegistry();
                ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(fresh, VIRTUAL_SHARDS)
                        .catalog(fresh.newCatalogUrl())
                        .property(ShardingSettings.REPLICA_MAX_LAG, "600000")
                        .property(ShardingSettings.METER_REGISTRY, meters);
                replicas.settings(fresh).forEach(builder::property);
                try (ShardedSessionFactory shards = builder.build()) {
                    List<Long> keys = seed(shards, 6, 8_000).stream().sorted().toList();
                    assertThat(idsByFanOut(shards, true)).containsExactlyElementsOf(keys);
                    assertThat(counted("atomicshards.replica.skipped", "BEHIND_SCHEMA")).isPositive();
                }
            } finally {
                replicas.resumeReplay();
            }
            replicas.awaitCaughtUp(CATCH_UP);
        }
    }

    /**
     * The replica stops replaying between a batch's promotion on the target and its release on the source, so its
     * snapshot has both shards claiming the batch: a fan-out over the replicas finds their answers overlapping and
     * runs again on the primaries, returning every unit once (it never gives up while the replica stays there).
     */
    @Test
    void aFanOutWhoseReplicasSawBothSidesOfAMoveRunsAgainOnThePrimaries() {
        try (ShardedSessionFactory shards = factory(600_000)) {
            List<Long> sorted = seed(shards, 30, 9_000).stream().sorted().toList();
            replicas.awaitCaughtUp(CATCH_UP);
            long moved = Fixtures.keyOn(shards, S0, 9_000);
            AtomicBoolean paused = new AtomicBoolean();
            MoveFaults.install(step -> {
                if (step.equals("after-promote") && paused.compareAndSet(false, true)) {
                    replicas.awaitCaughtUp(CATCH_UP); // the promotion replayed, the release not yet written
                    replicas.pauseReplay();
                }
            });
            try {
                shards.admin().move(Set.of(Fixtures.virtualShardOf(shards, moved)), S1, MoveOptions.defaults());
                assertThat(paused).as("paused inside the move").isTrue();

                double before = counted("atomicshards.replica.reads", null);
                assertThat(idsByFanOut(shards, true)).as("every unit once").containsExactlyElementsOf(sorted);
                if (pausedReplicaReportsItsLag()) {
                    assertThat(counted("atomicshards.replica.reads", null) - before)
                            .as("the first run read the replicas").isPositive();
                }
            } finally {
                MoveFaults.install(null);
                replicas.resumeReplay();
            }
            replicas.awaitCaughtUp(CATCH_UP);
        }
    }

    /** A replica promoted to a primary of its own diverges from the shard: no read may use it. */
    @Test
    void aPromotedReplicaIsNeverReadAgain() {
        try (ShardedSessionFactory shards = factory(600_000)) {
            seed(shards, 4, 10_000);
            replicas.awaitCaughtUp(CATCH_UP);
            replicas.promote();
            try {
                long key = Fixtures.keyOn(shards, S0, 10_100);
                shards.inUnit(User.class, key, session -> session.persist(new User(key, "after")));
                try (Session session = shards.openReadOnlySession(S0)) {
                    assertThat(replicas.isReplicaPort(port(session))).isFalse();
                    assertThat(session.find(User.class, key)).isNotNull();
                }
                assertThat(counted("atomicshards.replica.skipped", "NOT_REPLICATING")).isPositive();
                assertThat(shards.admin().replicas()).extracting(ReplicaStatus::state)
                        .containsOnly("NOT_REPLICATING");
            } finally {
                replicas.rejoin();
            }
            replicas.awaitCaughtUp(Duration.ofSeconds(60));
        }
    }
}
