package org.atomicshards.hibernate.internal.replica;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Asks a replica, in one statement, whether it replicates and how far behind its primary it is, measured on the
 * server. PostgreSQL: 0 while the standby streams and has replayed all the WAL it received, else the age of the last
 * transaction it replayed (an upper bound of its staleness, so a paused or disconnected standby soon counts as lagging);
 * MariaDB / MySQL: {@code Seconds_Behind_Master}, unknown while either replication thread is stopped.
 */
public sealed interface ReplicaProbe {

    /** A write position that could not be read: no replica can be shown to have replayed it. */
    String UNKNOWN_POSITION = "";

    ReplicaState read(Connection connection) throws SQLException;

    /** The primary's log position now, on one of its connections (after a commit: a position that includes it). */
    String position(Connection primary) throws SQLException;

    /**
     * Whether the replica has replayed {@code position}, waiting for it at most {@code waitMillis}.
     */
    boolean replayed(Connection replica, String position, long waitMillis) throws SQLException;

    /** The probe for a replica's JDBC URL (validated at boot to be PostgreSQL, MariaDB or MySQL). */
    static ReplicaProbe forUrl(String url) {
        return url.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:") ? new PostgreSql() : new MariaDb();
    }

    /** A streaming standby. */
    final class PostgreSql implements ReplicaProbe {

        private static final String SQL = "select pg_is_in_recovery(), case"
                + " when not pg_is_in_recovery() then null"
                + " when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()"
                + " and exists (select 1 from pg_stat_wal_receiver where status = 'streaming') then 0"
                + " else cast(extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000 as bigint)"
                + " end";

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

        @Override
        public ReplicaState read(Connection connection) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(SQL); ResultSet rs = ps.executeQuery()) {
                rs.next();
                boolean recovering = rs.getBoolean(1);
                long lag = rs.getLong(2);
                return new ReplicaState(recovering, rs.wasNull() ? ReplicaState.UNKNOWN_LAG : Math.max(0, lag));
            }
        }
    }

    /**
     * A MariaDB replica (MySQL: lag only); the user needs {@code REPLICA MONITOR} (or {@code REPLICATION CLIENT}), and
     * read-your-writes needs GTID replication.
     */
    final class MariaDb implements ReplicaProbe {

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

        @Override
        public ReplicaState read(Connection connection) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement("show slave status");
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new ReplicaState(false, ReplicaState.UNKNOWN_LAG);
                }
                long seconds = rs.getLong("Seconds_Behind_Master");
                return new ReplicaState(true, rs.wasNull() ? ReplicaState.UNKNOWN_LAG : seconds * 1000);
            }
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
