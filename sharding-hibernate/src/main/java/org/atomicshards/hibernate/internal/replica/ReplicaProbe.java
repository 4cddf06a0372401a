package org.atomicshards.hibernate.internal.replica;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;

/**
 * Asks a replica, on the connection a read will use, whether it replicates and how far behind its primary it is,
 * measured on the server, and leaves no transaction open (the read's own transaction, and so its snapshot, starts
 * after the answer). PostgreSQL: 0 while the standby streams and has replayed all the WAL it received, else the age of
 * the last transaction it replayed (an upper bound of its staleness, so a paused or disconnected standby soon counts
 * as lagging); MariaDB: {@code Seconds_Behind_Master}, unknown while either replication thread is stopped.
 */
public sealed interface ReplicaProbe {

    /** A write position that could not be read: no replica can be shown to have replayed it. */
    String UNKNOWN_POSITION = "";

    /**
     * The replica's state; with {@code changedVersion}, also its shard's latest ownership change
     * ({@link OwnershipFence#changedVersion}), which needs the fence's tables there.
     */
    ReplicaState read(Connection replica, boolean changedVersion) throws SQLException;

    /** The primary's log position now, on one of its connections (after a commit: a position that includes it). */
    String position(Connection primary) throws SQLException;

    /** Whether the replica has replayed {@code position}, waiting for it at most {@code waitMillis}. */
    boolean replayed(Connection replica, String position, long waitMillis) throws SQLException;

    /** The probe for a replica's JDBC URL (validated at boot to be PostgreSQL or MariaDB); probes are stateless. */
    static ReplicaProbe forUrl(String url) {
        return url.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:") ? PostgreSql.INSTANCE : MariaDb.INSTANCE;
    }

    /** A streaming standby. One statement, run in auto-commit: no transaction to end, no round trip to end it. */
    final class PostgreSql implements ReplicaProbe {

        static final PostgreSql INSTANCE = new PostgreSql();

        private static final String STATE = "select pg_is_in_recovery(), case"
                + " when not pg_is_in_recovery() then null"
                + " when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()"
                + " and exists (select 1 from pg_stat_wal_receiver where status = 'streaming') then 0"
                + " else cast(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000 as bigint)"
                + " end";
        private static final String STATE_AND_CHANGE = STATE
                + ", (select changed_version from as_fence where id = 1)";

        @Override
        public ReplicaState read(Connection replica, boolean changedVersion) throws SQLException {
            boolean autoCommit = replica.getAutoCommit();
            replica.setAutoCommit(true); // PostgreSQL's driver switches locally while no transaction is open
            try (PreparedStatement ps = replica.prepareStatement(changedVersion ? STATE_AND_CHANGE : STATE);
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                boolean recovering = rs.getBoolean(1);
                long lag = rs.getLong(2);
                lag = rs.wasNull() ? ReplicaState.UNKNOWN_LAG : Math.max(0, lag);
                return new ReplicaState(recovering, lag, changedVersion ? rs.getInt(3) : ReplicaState.NOT_READ);
            } finally {
                replica.setAutoCommit(autoCommit);
            }
        }

        @Override
        public String position(Connection primary) throws SQLException {
            return single(primary, "select cast(pg_current_wal_lsn() as text)");
        }

        @Override
        public boolean replayed(Connection replica, String position, long waitMillis) throws SQLException {
            long deadline = System.nanoTime() + waitMillis * 1_000_000;
            try (PreparedStatement ps = replica.prepareStatement(
                    "select pg_last_wal_replay_lsn() >= cast(? as pg_lsn)")) {
                ps.setString(1, position);
                while (true) {
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next() && rs.getBoolean(1)) {
                            return true;
                        }
                    }
                    if (System.nanoTime() - deadline >= 0) {
                        return false;
                    }
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
            }
        }
    }

    /**
     * A MariaDB replica; the user needs {@code REPLICA MONITOR} ({@code SLAVE MONITOR} before 11.0, or
     * {@code SUPER}), and read-your-writes needs GTID replication. The probe's statements end with a commit, as
     * MariaDB's driver switches auto-commit with a statement.
     */
    final class MariaDb implements ReplicaProbe {

        static final MariaDb INSTANCE = new MariaDb();

        @Override
        public ReplicaState read(Connection replica, boolean changedVersion) throws SQLException {
            ReplicaState state;
            try (PreparedStatement ps = replica.prepareStatement("show slave status");
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    state = new ReplicaState(false, ReplicaState.UNKNOWN_LAG, ReplicaState.NOT_READ);
                } else {
                    long seconds = rs.getLong("Seconds_Behind_Master");
                    state = new ReplicaState(true, rs.wasNull() ? ReplicaState.UNKNOWN_LAG : seconds * 1000,
                            ReplicaState.NOT_READ);
                }
            }
            if (changedVersion && state.replicating()) {
                state = new ReplicaState(true, state.lagMillis(), OwnershipFence.changedVersion(replica));
            }
            if (!replica.getAutoCommit()) {
                replica.commit();
            }
            return state;
        }

        @Override
        public String position(Connection primary) throws SQLException {
            return single(primary, "select @@gtid_binlog_pos");
        }

        @Override
        public boolean replayed(Connection replica, String position, long waitMillis) throws SQLException {
            try (PreparedStatement ps = replica.prepareStatement("select master_gtid_wait(?, ?)")) {
                ps.setString(1, position);
                ps.setDouble(2, waitMillis / 1000.0);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getInt(1) == 0;
                }
            }
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
