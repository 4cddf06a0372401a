package org.atomicshards.hibernate.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Predicate;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ReplicaConfig;
import org.atomicshards.hibernate.internal.config.ReplicaSpec;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;

/**
 * Chooses the replica a read uses. Before every read the replica is asked, on the connection the read will use, for
 * its lag ({@link ReplicaProbe}); a replica that is down, lags beyond the maximum (or cannot tell), replays no primary,
 * has not yet replayed the tables of the ownership checks, or, for a session, has not replayed the latest change of
 * which units its shard holds, is skipped for the shard's next replica, and the primary answers when none is fit.
 * Every read and skip is counted. Thread-safe.
 *
 * <p>With read-your-writes ({@link ReadYourWrites}), a read also skips a replica that has not replayed, within the
 * wait, what the reading thread committed on the shard.
 *
 * <p>A replica's snapshot is its primary's at an earlier moment, ownership tables included (they replicate with the
 * rows), so the checks that keep reads right while units move hold on it unchanged: a fan-out compares the claims
 * each answering replica read in its own snapshot, and a session's reads are confirmed on its connection. The check of
 * the latest change ({@code as_fence.changed_version}, compared with the primary's under the map this instance routes
 * by, read once per map version) keeps a session off a replica that has not yet received the units its shard gained.
 */
public final class ReplicaReads {

    /** How long a replica found down is skipped without asking, so that reads do not each wait for its timeout. */
    private static final long DOWN_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ReplicaConfig config;
    private final ShardPools pools;
    private final IntSupplier mapVersion;
    private final Predicate<ShardId> active;
    private final Consumer<ShardId> prepareShard;
    private final ShardMetrics metrics;
    /** The {@link System#nanoTime()} until which a replica found down is skipped without being asked. */
    private final Map<String, Long> downUntil = new ConcurrentHashMap<>();
    private final Map<ShardId, AtomicInteger> nextReplica = new ConcurrentHashMap<>();
    private final Map<ShardId, RequiredChange> required = new ConcurrentHashMap<>();
    /** The replicas known to have the fence's tables ({@link ReplicaSpec#label()}); tables are never dropped. */
    private final Set<String> withFenceTables = ConcurrentHashMap.newKeySet();
    /** Null unless read-your-writes is on. */
    private final ReadYourWrites readYourWrites;

    /** The latest ownership change of a shard's primary, as read under one map version. */
    private record RequiredChange(int mapVersion, int changedVersion) {
    }

    /**
     * @param mapVersion the version of the map this instance routes by
     * @param prepareShard run before a shard's first read (creates the fence's tables on its primary)
     * @param active whether a shard is in the topology now (the status lists only their replicas)
     */
    public ReplicaReads(ReplicaConfig config, ShardPools pools, IntSupplier mapVersion,
                        Consumer<ShardId> prepareShard, Predicate<ShardId> active, ShardMetrics metrics) {
        this.active = active;
        this.config = config;
        this.pools = pools;
        this.mapVersion = mapVersion;
        this.prepareShard = prepareShard;
        this.metrics = metrics;
        this.readYourWrites = config.readYourWrites() && config.any() ? new ReadYourWrites(pools, config) : null;
    }

    /** The listener that records this instance's committed writes for read-your-writes; null when it is off. */
    public ReadYourWrites readYourWrites() {
        return readYourWrites;
    }

    /**
     * The replica reads of the calling thread: with read-your-writes, they wait for the writes this thread committed
     * so far, also when they run on other threads (a fan-out's).
     */
    public Reader forThisThread() {
        return new Reader(readYourWrites == null ? Map.of() : readYourWrites.positionsOfThisThread());
    }

    /** Replica reads on behalf of one thread, with the write positions it must see. */
    public final class Reader {

        private final Map<ShardId, String> writes;

        private Reader(Map<ShardId, String> writes) {
            this.writes = writes;
        }

        /**
         * A connection of a replica of {@code shard} fit for a read now, its transaction not begun; null if the shard
         * has none fit (read from the primary). Give it back with {@link #release}.
         *
         * @param forSession whether a session reads on it (it must then have replayed its shard's latest ownership
         *                   change); a fan-out checks the claims it answers under itself
         */
        public Connection connection(ShardId shard, boolean forSession) {
            return ReplicaReads.this.connection(shard, forSession, writes.get(shard));
        }

        /** Gives back a connection of {@link #connection}. Never throws. */
        public void release(Connection connection) {
            pools.releaseReplicaConnection(connection);
        }
    }

    /** Whether read-only sessions and units of work read from replicas. */
    public boolean readOnlyWork() {
        return config.readOnlyWork();
    }

    /** @param written the position the reading thread wrote on the shard, or null */
    private Connection connection(ShardId shard, boolean forSession, String written) {
        List<ReplicaSpec> replicas = config.of(shard);
        if (replicas.isEmpty()) {
            return null;
        }
        prepareShard.accept(shard);
        int first = Math.floorMod(nextReplica.computeIfAbsent(shard, id -> new AtomicInteger()).getAndIncrement(),
                replicas.size());
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaSpec replica = replicas.get((first + i) % replicas.size());
            Connection connection = fitConnection(replica, forSession, written);
            if (connection != null) {
                metrics.replicaRead(shard, replica.name());
                return connection;
            }
        }
        return null;
    }

    private Connection fitConnection(ReplicaSpec replica, boolean forSession, String written) {
        Long down = downUntil.get(replica.label());
        if (down != null && down - System.nanoTime() > 0) {
            skipped(replica, SkipReason.DOWN);
            return null;
        }
        Connection connection;
        try {
            connection = pools.replicaConnection(replica);
        } catch (SQLException | RuntimeException e) {
            downUntil.put(replica.label(), System.nanoTime() + DOWN_BACKOFF_NANOS);
            skipped(replica, SkipReason.DOWN);
            return null;
        }
        SkipReason reason;
        try {
            reason = probe(replica, connection, forSession, written);
        } catch (SQLException | RuntimeException e) {
            downUntil.put(replica.label(), System.nanoTime() + DOWN_BACKOFF_NANOS);
            reason = SkipReason.DOWN;
        }
        if (reason != null) {
            pools.releaseReplicaConnection(connection);
            skipped(replica, reason);
            return null;
        }
        return connection;
    }

    /**
     * Why a read may not use {@code replica} on {@code connection}, or null if it may; leaves no transaction open.
     * One statement in the common case (lag, and the latest ownership change for a session); one more once per
     * replica until it has the fence's tables, and one more for read-your-writes after a write.
     */
    private SkipReason probe(ReplicaSpec replica, Connection connection, boolean checkMove, String written)
            throws SQLException {
        ReplicaProbe probe = ReplicaProbe.forUrl(replica.url());
        boolean extraStatements = false;
        try {
            if (!withFenceTables.contains(replica.label())) {
                extraStatements = true;
                if (!OwnershipFence.readTablesExist(connection)) {
                    return SkipReason.BEHIND_SCHEMA;
                }
                withFenceTables.add(replica.label());
            }
            ReplicaState state = probe.read(connection, checkMove);
            metrics.replicaLag(replica.shard(), replica.name(), state.lagMillis());
            SkipReason reason = state.skipReason(config.maxLagMillis());
            if (reason == null && checkMove && state.changedVersion() < requiredChange(replica.shard())) {
                return SkipReason.BEHIND_MOVE;
            }
            if (reason == null && written != null) {
                extraStatements = true;
                if (written.equals(ReplicaProbe.UNKNOWN_POSITION)
                        || !probe.replayed(connection, written, config.readYourWritesWaitMillis())) {
                    return SkipReason.BEHIND_WRITES;
                }
            }
            return reason;
        } finally {
            if (extraStatements && !connection.getAutoCommit()) {
                connection.commit(); // the read's transaction, and its snapshot, start after the probe
            }
        }
    }

    private void skipped(ReplicaSpec replica, SkipReason reason) {
        metrics.replicaSkipped(replica.shard(), replica.name(), reason.name());
    }

    /** The latest ownership change of {@code shard}'s primary under the map this instance routes by. */
    private int requiredChange(ShardId shard) throws SQLException {
        int version = mapVersion.getAsInt();
        RequiredChange known = required.get(shard);
        if (known != null && known.mapVersion() >= version) {
            return known.changedVersion();
        }
        int changed;
        try (Connection primary = pools.connection(shard)) {
            changed = OwnershipFence.changedVersion(primary);
            primary.rollback();
        }
        required.put(shard, new RequiredChange(version, changed));
        return changed;
    }

    /**
     * Every replica asked now (not through the read path: nothing is counted as a read or skip), in shard and name
     * order, for the status and health.
     */
    public List<ReplicaStatus> check() {
        List<ReplicaStatus> statuses = new ArrayList<>();
        config.byShard().entrySet().stream()
                .filter(entry -> active.test(entry.getKey()))
                .sorted(Map.Entry.comparingByKey())
                .forEach(entry -> entry.getValue().forEach(replica -> statuses.add(check(replica))));
        return statuses;
    }

    private ReplicaStatus check(ReplicaSpec replica) {
        Connection connection;
        try {
            connection = pools.replicaConnection(replica);
        } catch (SQLException | RuntimeException e) {
            return down(replica, e);
        }
        try {
            ReplicaState state = ReplicaProbe.forUrl(replica.url()).read(connection, false);
            metrics.replicaLag(replica.shard(), replica.name(), state.lagMillis());
            SkipReason reason = state.skipReason(config.maxLagMillis());
            return new ReplicaStatus(replica.shard().name(), replica.name(), Redaction.url(replica.url()),
                    reason == null ? "UP" : reason.name(), state.lagMillis(), "");
        } catch (SQLException | RuntimeException e) {
            return down(replica, e);
        } finally {
            pools.releaseReplicaConnection(connection);
        }
    }

    private static ReplicaStatus down(ReplicaSpec replica, Exception failure) {
        String why = String.valueOf(failure.getMessage());
        if (failure.getCause() != null && failure.getCause() != failure) {
            why += " (" + failure.getCause().getMessage() + ")"; // the pool's timeout hides the driver's reason
        }
        return new ReplicaStatus(replica.shard().name(), replica.name(), Redaction.url(replica.url()),
                SkipReason.DOWN.name(), ReplicaState.UNKNOWN_LAG, Redaction.url(why));
    }
}
