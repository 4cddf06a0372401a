package org.atomicshards.hibernate.internal.reshard.lease;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;

/**
 * Write leases: lets units of work skip the ownership fence's statements while no resharding operation involves their
 * shard, so that the fence costs nothing between operations.
 *
 * <p>A lease belongs to one physical connection. The first time a session takes a connection from a shard's pool,
 * {@link #check} asks the shard, in a transaction of its own, whether it leases: only if no operation has armed the
 * shard ({@code as_lease_state.armed = 0}) and this instance's map is at least the shard's lease version (the map an
 * operation that finished there left behind, so an instance that has not seen that operation keeps fencing and is
 * turned away by the fence), and only if the connection reaches the server directly, without a pooler or proxy that
 * could run its later transactions in other server sessions ({@link DirectConnections}). It then records the
 * connection's server session in {@code as_fence_lease}. That read locks the shard's lease state row, and an
 * operation arms the shard under the same lock, so each check either committed its session before the arm (and the
 * operation waits for that session to end, {@link LeaseRevocation}) or sees the arm and does not lease.
 *
 * <p>A unit of work whose connection {@link #holds} a lease enters no fence: the operation that would need it first
 * ends every leased session on the shards it involves, and the database, not a clock, says when they have ended.
 * At each topology refresh {@link #maintain} gives leased connections back (evicts them from the pool) on shards an
 * operation armed, so a healthy instance's sessions end by themselves before the operation's grace runs out, and
 * evicts fenced connections once their shard leases again.
 *
 * <p>Thread-safe.
 */
public final class ConnectionLeases {

    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");

    private static final String STATE = "select lease_version, armed from as_lease_state where id = 1";

    /** What this instance knows of one physical connection; {@code used} is set when a session takes it. */
    private static final class Known {
        final ShardId shard;
        final boolean leased;
        final ServerSessions.Session session;
        volatile boolean used = true;

        Known(ShardId shard, boolean leased, ServerSessions.Session session) {
            this.shard = shard;
            this.leased = leased;
            this.session = session;
        }
    }

    private final OwnershipFence fence;
    private final ShardPools pools;
    private final CachedShardDirectory directory;
    private final boolean enabled;
    private final Map<Connection, Known> known = new ConcurrentHashMap<>();
    private final Map<ShardId, Boolean> leasing = new ConcurrentHashMap<>();
    /** Shards whose connections were found not to reach the server directly, each reported once. */
    private final Set<ShardId> reportedIndirect = ConcurrentHashMap.newKeySet();
    /** Sessions that ended on shards not read since: their lease rows are deleted at the shard's next read. */
    private final Map<ShardId, List<ServerSessions.Session>> unforgotten = new ConcurrentHashMap<>();

    /** @param enabled whether this instance takes leases at all (it always honours other instances' leases) */
    public ConnectionLeases(OwnershipFence fence, ShardPools pools, CachedShardDirectory directory, boolean enabled) {
        this.fence = fence;
        this.pools = pools;
        this.directory = directory;
        this.enabled = enabled;
    }

    /** Whether this instance takes leases. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Called with each connection a session takes from {@code shard}'s pool, before the session uses it: the first time
     * for a physical connection, tries to lease it. Never throws: a connection that could not be leased is fenced.
     */
    public void check(ShardId shard, Connection pooled) {
        if (!enabled) {
            return;
        }
        Connection physical = physical(pooled);
        if (physical == null) {
            return;
        }
        Known entry = known.get(physical);
        if (entry != null) {
            if (!entry.used) {
                entry.used = true;
            }
            return;
        }
        ShardSql sql = fence.preparedSql(shard);
        if (sql == null) {
            return; // the fence's tables may not exist yet: the next connection is checked
        }
        known.put(physical, lease(shard, pooled, sql));
    }

    private Known lease(ShardId shard, Connection connection, ShardSql sql) {
        boolean autoCommit = true;
        try {
            autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement ps = connection.prepareStatement(STATE + " for update");
                 ResultSet rs = ps.executeQuery()) {
                if (!leasable(rs)) {
                    connection.rollback();
                    return new Known(shard, false, null);
                }
            }
            String indirect = DirectConnections.whyNotDirect(sql, connection);
            if (indirect != null) {
                connection.rollback();
                reportIndirect(shard, indirect);
                return new Known(shard, false, null);
            }
            ServerSessions.Session session = ServerSessions.of(sql).current(connection);
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_fence_lease (session_id, session_start) values (?, ?)")) {
                ps.setLong(1, session.id());
                ps.setLong(2, session.start());
                ps.executeUpdate();
            }
            connection.commit();
            return new Known(shard, true, session);
        } catch (SQLException e) {
            rollbackQuietly(connection);
            LOG.log(Level.FINE, e, () -> "Shard '" + shard + "': a connection could not be leased; its units of work "
                    + "are fenced");
            return new Known(shard, false, null);
        } finally {
            try {
                connection.setAutoCommit(autoCommit);
            } catch (SQLException ignored) {
                // a broken connection: the pool finds out
            }
        }
    }

    private void reportIndirect(ShardId shard, String why) {
        if (reportedIndirect.add(shard)) {
            LOG.warning(() -> "Shard '" + shard + "': " + why + ". Its server session is then not the connection's "
                    + "for good, so its units of work enter the ownership fence (one locking read each) instead of "
                    + "holding a write lease; nothing else changes. Connect to the database directly for write leases, "
                    + "or set " + ShardingSettings.RESHARDING_CONNECTION_LEASE + "=false to fence every connection "
                    + "without this warning");
        }
    }

    /** Whether the connection a unit of work runs on holds a lease, so that the unit enters no fence. */
    public boolean holds(Connection pooled) {
        if (!enabled) {
            return false;
        }
        Connection physical = physical(pooled);
        Known entry = physical == null ? null : known.get(physical);
        return entry != null && entry.leased;
    }

    /**
     * At each topology refresh: forgets closed connections (deleting their lease rows), and for each shard this
     * instance has connections to, reads whether it leases now. An armed shard gets its leased connections evicted
     * (idle ones close now, busy ones when their unit of work ends); a shard that leases again after an operation gets
     * its fenced connections evicted, so new ones lease.
     *
     * <p>A shard whose pool keeps no idle connection and whose connections no session took since the last refresh is
     * not touched: taking a connection for the read every refresh kept one open for good (and ran a statement per
     * shard and refresh, 256 of them at 256 shards), where the pool would close it after its idle timeout. Its
     * connections close by themselves, and the lease rows of their sessions are deleted at the shard's next read (an
     * operation deletes those of ended sessions too); an operation that arms the shard meanwhile ends them after its
     * grace, as it does the sessions of an instance that does not refresh.
     */
    public void maintain() {
        if (!enabled) {
            return;
        }
        Map<ShardId, List<Map.Entry<Connection, Known>>> byShard = new HashMap<>();
        known.entrySet().forEach(e -> byShard.computeIfAbsent(e.getValue().shard, s -> new ArrayList<>()).add(e));
        byShard.forEach(this::maintain);
    }

    private void maintain(ShardId shard, List<Map.Entry<Connection, Known>> entries) {
        List<ServerSessions.Session> ended = new ArrayList<>();
        boolean leased = false;
        boolean fenced = false;
        boolean used = false;
        for (Map.Entry<Connection, Known> entry : entries) {
            Known value = entry.getValue();
            if (PhysicalConnections.isClosed(entry.getKey())) {
                known.remove(entry.getKey());
                if (value.leased) {
                    ended.add(value.session);
                }
                continue;
            }
            if (value.used) {
                used = true;
                value.used = false;
            }
            if (value.leased) {
                leased = true;
            } else {
                fenced = true;
            }
        }
        if (!used && !pools.keepsIdleConnections(shard)) {
            if (!ended.isEmpty()) { // their rows are deleted when the shard is next read, or by an operation
                unforgotten.computeIfAbsent(shard, s -> new ArrayList<>()).addAll(ended);
            }
            return;
        }
        List<ServerSessions.Session> earlier = unforgotten.remove(shard);
        if (earlier != null) {
            ended.addAll(earlier);
        }
        try (Connection connection = pools.connection(shard)) {
            boolean leases;
            try {
                forget(connection, ended);
                ShardSql sql = fence.preparedSql(shard);
                String read = sql == null ? STATE : sql.bookkeepingRead(STATE);
                try (PreparedStatement ps = connection.prepareStatement(read); ResultSet rs = ps.executeQuery()) {
                    leases = leasable(rs);
                }
                connection.commit();
            } catch (SQLException e) {
                rollbackQuietly(connection);
                throw e;
            }
            Boolean before = leasing.put(shard, leases);
            if ((!leases && leased) || (leases && fenced && !Boolean.TRUE.equals(before))) {
                pools.retireConnections(shard);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "Shard '" + shard + "': could not read its lease state; tried again at the "
                    + "next refresh");
        }
    }

    private static void forget(Connection connection, List<ServerSessions.Session> ended) throws SQLException {
        if (ended.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(
                "delete from as_fence_lease where session_id = ? and session_start = ?")) {
            for (ServerSessions.Session session : ended) {
                ps.setLong(1, session.id());
                ps.setLong(2, session.start());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Whether the lease state row read by {@link #STATE} lets this instance lease: not armed, its map new enough. */
    private boolean leasable(ResultSet state) throws SQLException {
        return state.next() && state.getInt(2) == 0 && directory.settledVersion() >= state.getLong(1);
    }

    private static Connection physical(Connection pooled) {
        try {
            return PhysicalConnections.of(pooled);
        } catch (SQLException e) {
            return null;
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // a broken connection: nothing of the transaction commits
        }
    }
}
