package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Write leases on every database: a unit of work on a leased connection enters no fence; an operation arms its shards
 * and ends every leased session before it changes ownership there (the instances give them back at their refresh, or
 * the database ends them after the grace, rolling their transactions back); an instance whose map is older than the
 * shard's lease version does not lease and is turned away by the fence; an operation that stopped leaves its shards
 * fenced until it is resumed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WriteLeaseContract {

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

    private ShardedSessionFactoryBuilder leasing(String catalog, long refreshMillis) {
        return Fixtures.anotherInstance(dbs, VIRTUAL_SHARDS, catalog)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, Long.toString(refreshMillis))
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true")
                .property(ShardingSettings.RESHARDING_WRITE_PAUSE, "300");
    }

    @Test
    void aLeasedConnectionEntersNoFenceUntilAnOperationArmsItsShard() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory created = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false").build();
             ShardedSessionFactory shards = leasing(catalog, 100).build()) {
            long key = Fixtures.keyOn(shards, S0, 1_000_000);
            int bucket = Fixtures.virtualShardOf(shards, key);
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "leased")));
            assertThat(leaseRows(S0)).as("the unit of work's connection leased").isPositive();

            // what a move's freeze writes, without the arm before it
            Fixtures.setOwnershipState(dbs, S0, bucket, "FROZEN");
            try {
                shards.inUnit(User.class, key, session -> session.persist(new Status(session.find(User.class, key),
                        "on a leased connection")));
                assertThat(statuses(S0, key)).as("no fence was entered").isEqualTo(1);

                arm(S0, "an-operation");
                awaitNoLeaseRows(S0); // the refresh gave the leases back; nothing else ends them here
                assertThatThrownBy(() -> shards.inUnit(User.class, key, session -> session.persist(
                        new Status(session.find(User.class, key), "armed")))).isInstanceOf(ShardMovingException.class);
                assertThat(statuses(S0, key)).as("the fence refused the write").isEqualTo(1);
            } finally {
                Fixtures.setOwnershipState(dbs, S0, bucket, "OWNED");
            }
            shards.admin().resume(); // takes back the arm of an operation the journal does not know
            assertThat(armed(S0)).isZero();
            awaitLeaseRows(S0, shards, key);
        }
    }

    @Test
    void aMoveEndsTheSessionOfAnInstanceThatKeepsItsLeaseAndItsTransactionCommitsNothing() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "300")
                .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build();
             ShardedSessionFactory writer = leasing(catalog, 600_000).build()) {
            long key = Fixtures.keyOn(writer, S0, 2_000_000);
            writer.inUnit(User.class, key, session -> session.persist(new User(key, "held")));
            OpenUnitOfWork held = OpenUnitOfWork.flushStatus(writer, key, "held through the move");
            assertThat(leaseRows(S0)).isPositive();

            MoveReport report = mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1,
                    MoveOptions.defaults());
            held.release();

            assertThatThrownBy(() -> held.done().get(30, TimeUnit.SECONDS)).as("its session was ended").isNotNull();
            assertThat(report.units()).isPositive();
            assertThat(statuses(S0, key) + statuses(S1, key)).as("the ended transaction committed nothing").isZero();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
        }
    }

    @Test
    void byDefaultAMoveThatCannotTakeALeaseBackStopsBeforeChangingOwnershipNamingTheSession() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "300").build()) {
            ShardedSessionFactory writer = leasing(catalog, 600_000).build();
            long key = Fixtures.keyOn(writer, S0, 7_000_000);
            int bucket = Fixtures.virtualShardOf(writer, key);
            try {
                writer.inUnit(User.class, key, session -> session.persist(new User(key, "held")));
                OpenUnitOfWork held = OpenUnitOfWork.flushStatus(writer, key, "held through the refusal");
                assertThat(leaseRows(S0)).isPositive();

                assertThatThrownBy(() -> mover.admin().move(Set.of(bucket), S1, MoveOptions.defaults()))
                        .isInstanceOf(MoveFailedException.class)
                        .hasMessageContaining("still hold write leases on shard 's0'")
                        .hasMessageContaining("session ")
                        .hasMessageContaining(ShardingSettings.RESHARDING_END_LEASED_SESSIONS);
                assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).as("nothing moved").isTrue();
                assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isFalse();

                held.release();
                held.done().get(30, TimeUnit.SECONDS); // its session was not ended: its transaction commits
                assertThat(statuses(S0, key)).isEqualTo(1);
            } finally {
                writer.close(); // its pool closes, and its sessions and their leases end
            }
            mover.admin().resume();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).isTrue();
            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
            assertThat(statuses(S1, key)).isEqualTo(1);
        }
    }

    @Test
    void instancesGiveTheirLeasesBackAtTheirRefreshAndNoAcknowledgedWriteIsLost() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "120000").build();
             ShardedSessionFactory writer = leasing(catalog, 100).build()) {
            long key = Fixtures.keyOn(writer, S0, 3_000_000);
            int bucket = Fixtures.virtualShardOf(writer, key);
            List<Long> keys = new ArrayList<>(); // three units that move, three that stay on the same shard
            int moving = 0;
            for (long k = key; keys.size() < 6; k++) {
                boolean moves = Fixtures.virtualShardOf(writer, k) == bucket;
                if (moves && moving < 3 || !moves && writer.shardFor(User.class, k).orElseThrow().equals(S0)
                        && keys.size() - moving < 3) {
                    keys.add(k);
                    moving += moves ? 1 : 0;
                }
            }
            keys.forEach(k -> writer.inUnit(User.class, k, session -> session.persist(new User(k, "u" + k))));
            Map<Long, List<String>> acknowledged = new ConcurrentHashMap<>();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong refused = new AtomicLong();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                for (int i = 0; !stop.get(); i++) {
                    long k = keys.get(i % keys.size());
                    String text = "w" + i;
                    try {
                        writer.inUnit(User.class, k, session -> session.persist(
                                new Status(session.find(User.class, k), text)));
                        acknowledged.computeIfAbsent(k, x -> new java.util.concurrent.CopyOnWriteArrayList<>())
                                .add(text);
                    } catch (ShardMovingException e) {
                        refused.incrementAndGet();
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }
            });
            Thread.sleep(300);
            long started = System.nanoTime();
            mover.admin().move(Set.of(bucket), S1, MoveOptions.defaults());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            Thread.sleep(300);
            stop.set(true);
            writes.get(60, TimeUnit.SECONDS);

            assertThat(failures).as("no session was ended under a unit of work").isEmpty();
            assertThat(took).as("the move did not wait for its grace").isLessThan(Duration.ofSeconds(60));
            for (long k : keys) {
                ShardId owner = mover.shardFor(User.class, k).orElseThrow();
                List<String> texts = new ArrayList<>(statusTexts(S0, k));
                texts.addAll(statusTexts(S1, k));
                assertThat(texts).as("unit " + k + ": every acknowledged write once, where the map says")
                        .containsExactlyInAnyOrderElementsOf(acknowledged.getOrDefault(k, List.of()));
                assertThat(statusTexts(owner.equals(S0) ? S1 : S0, k)).isEmpty();
            }
        }
    }

    @Test
    void anInstanceBehindTheShardsLeaseVersionDoesNotLeaseAndTheFenceTurnsItAway() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "0")
                .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build();
             ShardedSessionFactory stale = leasing(catalog, 600_000).build()) {
            long key = Fixtures.keyOn(stale, S0, 4_000_000);
            long sibling = sameVirtualShard(stale, key);
            stale.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
            assertThat(leaseRows(S0)).isPositive();
            mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1, MoveOptions.defaults());
            int before = stale.directory().version();
            Thread.sleep(700); // the pool checks a connection idle this long before it hands it out: the ended ones go

            stale.inUnit(User.class, sibling, session -> session.persist(new User(sibling, "after the move")));

            assertThat(Fixtures.hasRow(dbs, "s0", "app_user", sibling)).isFalse();
            assertThat(Fixtures.hasRow(dbs, "s1", "app_user", sibling)).isTrue();
            assertThat(stale.directory().version()).as("the fence's refusal refreshed the map").isGreaterThan(before);
        }
    }

    /**
     * A unit of work routed with the map its instance held before a refresh, then given a connection leased under the
     * refreshed map: the lease vouches only for the map it was checked against, so the unit of work enters the fence,
     * which turns it away from the shard that gave its unit away (before, it ran there unfenced and found its unit
     * gone).
     */
    @Test
    void aUnitOfWorkRoutedWithAMapOlderThanItsLeaseEntersTheFence() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "0")
                .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build();
             ShardedSessionFactory stale = leasing(catalog, 600_000).build()) {
            long key = Fixtures.keyOn(stale, S0, 5_000_000);
            int bucket = Fixtures.virtualShardOf(stale, key);
            stale.inUnit(User.class, key, session -> session.persist(new User(key, "before the move")));
            int routedWith = stale.directory().version();
            mover.admin().move(Set.of(bucket), S1, MoveOptions.defaults());
            Thread.sleep(700); // the pool checks a connection idle this long before it hands it out: the ended ones go
            ((CachedShardDirectory) stale.directory()).refresh(); // between the routing and the connection's lease
            WriteFence fence = writeFence(stale);
            FenceTarget target = FenceTarget.of(((ShardRouterImpl) stale.router()).unitOf(User.class), bucket, key);

            try (Session session = stale.openSession(S0)) {
                session.beginTransaction();
                session.doWork(connection -> { }); // takes the connection, which leases under the refreshed map
                assertThat(fence.leased((SharedSessionContractImplementor) session)).as("leased").isTrue();
                assertThatThrownBy(() -> fence.enterUnit(session, S0, routedWith, () -> target))
                        .isInstanceOfSatisfying(FenceRejection.class, rejection ->
                                assertThat(rejection.reason()).isEqualTo(FenceRejection.Reason.STALE));
                fence.enterUnit(session, S0, stale.directory().version(), () -> target); // routed with this map: no fence
                session.getTransaction().rollback();
            }
        }
    }

    /** The write fence of {@code factory}, which its units of work pass. */
    private static WriteFence writeFence(ShardedSessionFactory factory) throws ReflectiveOperationException {
        java.lang.reflect.Field field = factory.getClass().getDeclaredField("fence");
        field.setAccessible(true);
        return (WriteFence) field.get(factory);
    }

    @Test
    void anOperationThatStoppedLeavesItsShardsFencedUntilItIsResumed() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .property(ShardingSettings.RESHARDING_LEASE_GRACE, "0")
                .property(ShardingSettings.RESHARDING_END_LEASED_SESSIONS, "true").build();
             ShardedSessionFactory writer = leasing(catalog, 100).build()) {
            long key = Fixtures.keyOn(writer, S0, 5_000_000);
            writer.inUnit(User.class, key, session -> session.persist(new User(key, "stopped")));
            MoveFaults.install(step -> {
                if (step.equals("before-copy")) {
                    throw new IllegalStateException("played crash");
                }
            });
            assertThatThrownBy(() -> mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1,
                    MoveOptions.defaults())).isInstanceOf(MoveFailedException.class);
            MoveFaults.install(null);
            assertThat(armed(S0)).isEqualTo(1);
            assertThat(armed(S1)).isEqualTo(1);
            Thread.sleep(700);
            writer.inUnit(User.class, key, session -> session.persist(new Status(session.find(User.class, key),
                    "while stopped")));
            assertThat(leaseRows(S0)).as("no connection leases on an armed shard").isZero();

            mover.admin().resume();
            assertThat(armed(S0)).isZero();
            assertThat(armed(S1)).isZero();
            assertThat(statuses(S1, key)).isEqualTo(1);
            awaitLeaseRows(S1, writer, key);
        }
    }

    @Test
    void aMoveThatStoppedBetweenItsEndAndItsDisarmHasItsArmsTakenBackByResume() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build(); // the writer gives its leases back at its next refresh
             ShardedSessionFactory writer = leasing(catalog, 100).build()) {
            long key = moveStoppedBeforeItsDisarm(mover, writer, 6_000_000);
            assertThat(armed(S0)).isEqualTo(1);
            assertThat(armed(S1)).isEqualTo(1);

            mover.admin().resume(); // nothing unfinished in the journal: it only takes back the ended move's arms
            assertThat(armed(S0)).isZero();
            assertThat(armed(S1)).isZero();
            awaitLeaseRows(S1, writer, key);
        }
    }

    @Test
    void anInstanceWithAutoResumeTakesBackTheArmsOfAMoveThatEndedAfterItsLastLook() throws Exception {
        String catalog = dbs.newCatalogUrl();
        try (ShardedSessionFactory mover = Fixtures.builderOnSharedCatalog(dbs, VIRTUAL_SHARDS).catalog(catalog)
                .build(); // the writer gives its leases back at its next refresh
             ShardedSessionFactory writer = leasing(catalog, 100).build();
             ShardedSessionFactory resumer = leasing(catalog, 100)
                     .property(ShardingSettings.RESHARDING_AUTO_RESUME, "true").build()) {
            Thread.sleep(500); // the resumer has looked for arms on every shard already: none there
            long key = moveStoppedBeforeItsDisarm(mover, writer, 7_000_000);
            // only the resumer can take the arms back: the mover crashed before its disarm, the writer never resumes

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (armed(S0) + armed(S1) > 0) {
                assertThat(System.nanoTime()).as("the resumer took the ended move's arms back").isLessThan(deadline);
                Thread.sleep(50);
            }
            awaitLeaseRows(S1, writer, key);
            assertThat(resumer.admin().operations()).isEmpty();
        }
    }

    /**
     * Moves a unit of {@code writer}'s from s0 to s1 and plays a crash after the move ended in the journal and before
     * it disarmed its shards: the unit is on s1, both shards left armed (until something takes the arms back).
     *
     * @return the unit's key
     */
    private long moveStoppedBeforeItsDisarm(ShardedSessionFactory mover, ShardedSessionFactory writer, long from)
            throws Exception {
        long key = Fixtures.keyOn(writer, S0, from);
        writer.inUnit(User.class, key, session -> session.persist(new User(key, "moved")));
        MoveFaults.install(step -> {
            if (step.equals("before-disarm")) {
                throw new IllegalStateException("played crash");
            }
        });
        try {
            assertThatThrownBy(() -> mover.admin().move(Set.of(Fixtures.virtualShardOf(mover, key)), S1,
                    MoveOptions.defaults()))
                    .isInstanceOf(MoveFailedException.class).hasMessageContaining("played crash");
        } finally {
            MoveFaults.install(null);
        }
        assertThat(Fixtures.hasRow(dbs, "s1", "app_user", key)).as("the move itself finished").isTrue();
        assertThat(Fixtures.hasRow(dbs, "s0", "app_user", key)).isFalse();
        assertThat(mover.admin().operations()).as("the journal lists the move as ended").isEmpty();
        return key;
    }

    private void awaitLeaseRows(ShardId shard, ShardedSessionFactory factory, long key) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (leaseRows(shard) == 0) {
            assertThat(System.nanoTime()).as("connections lease again on shard " + shard).isLessThan(deadline);
            factory.inUnit(User.class, key, session -> session.find(User.class, key));
            Thread.sleep(50);
        }
    }

    private void awaitNoLeaseRows(ShardId shard) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Connection c = dbs.connect(shard.name()); PreparedStatement ps = c.prepareStatement(
                    "select session_id, session_start from as_fence_lease"); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
            }
            sweep(shard);
            assertThat(System.nanoTime()).as("leases given back on shard " + shard).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    /**
     * What an operation's wait does first: forgets the lease rows of sessions that have ended. On H2 the session list
     * may fail while other sessions commit (a NullPointerException inside H2 2.4.240); the caller's loop sweeps again.
     */
    private void sweep(ShardId shard) throws SQLException {
        try (Connection c = dbs.connect(shard.name()); var statement = c.createStatement()) {
            statement.executeUpdate(switch (kind()) {
                case H2 -> "delete from as_fence_lease where not exists (select 1 from information_schema.sessions s "
                        + "where s.session_id = as_fence_lease.session_id)";
                case POSTGRESQL -> "delete from as_fence_lease where not exists (select 1 from pg_stat_activity a "
                        + "where a.pid = as_fence_lease.session_id)";
                case MARIADB -> "delete from as_fence_lease "
                        + "where coalesce(is_used_lock(concat('as_lease_', session_start)), -1) <> session_id";
            });
        } catch (SQLException e) {
            if (kind() != DatabaseKind.H2 || !(e.getCause() instanceof NullPointerException)) {
                throw e;
            }
        }
    }

    private void arm(ShardId shard, String operation) throws SQLException {
        try (Connection c = dbs.connect(shard.name())) {
            try (PreparedStatement ps = c.prepareStatement("insert into as_fence_arm (operation_id) values (?)")) {
                ps.setString(1, operation);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("update as_lease_state set armed = armed + 1")) {
                ps.executeUpdate();
            }
        }
    }

    private long armed(ShardId shard) throws SQLException {
        return single(shard, "select armed from as_lease_state where id = 1");
    }

    private long leaseRows(ShardId shard) throws SQLException {
        return single(shard, "select count(*) from as_fence_lease");
    }

    private long single(ShardId shard, String sql) throws SQLException {
        try (Connection c = dbs.connect(shard.name()); PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }


    private long statuses(ShardId shard, long user) throws SQLException {
        return statusTexts(shard, user).size();
    }

    private List<String> statusTexts(ShardId shard, long user) throws SQLException {
        List<String> texts = new ArrayList<>();
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

    private static long sameVirtualShard(ShardedSessionFactory factory, long key) {
        for (long other = key + 1; ; other++) {
            if (Fixtures.virtualShardOf(factory, other) == Fixtures.virtualShardOf(factory, key)) {
                return other;
            }
        }
    }
}
