package org.atomicshards.hibernate.internal.reshard.lease;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;

import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;

/**
 * Names a database server session so that another session can later tell, from the database alone, whether it still
 * exists, and end it. A name is two numbers that are never reused for another session while the server runs:
 * PostgreSQL's backend pid with the backend's start in microseconds; H2's session id with the session's start;
 * MariaDB's connection id with a random token the session holds as a named lock ({@code GET_LOCK}) for as long as it
 * lives, which also survives a server restart that reuses the id. No clock of this process takes part.
 *
 * <p>A session the asking user may not fully see is never taken as ended: PostgreSQL hides the start of another
 * user's session from a user without the privileges of that user's role (or {@code pg_read_all_stats}), so a session
 * with the recorded pid whose start is hidden counts as alive, and {@link #end} refuses to end it.
 *
 * <p>H2 2.4.240 computes every column of {@code information_schema.sessions} for every session, and a session ending
 * its transaction meanwhile can make the query fail with a general error caused by a {@link NullPointerException}
 * (h2database issue 4352, fixed after that release). Every statement here reads, or deletes what has ended, so on H2
 * it runs again when that race is the cause.
 */
public enum ServerSessions {
    // locked: H2 would keep the query in the session's cache, a cost to each later write (ShardSql.keepsSessionQueries)
    H2("select session_id, cast(extract(epoch from session_start) * 1000000 as bigint) "
            + "from information_schema.sessions where session_id = session_id() for update",
            "select count(*) from information_schema.sessions where session_id = ? "
                    + "and cast(extract(epoch from session_start) * 1000000 as bigint) = ?",
            "select abort_session(session_id) from information_schema.sessions where session_id = ? "
                    + "and cast(extract(epoch from session_start) * 1000000 as bigint) = ?",
            "delete from as_fence_lease where not exists (select 1 from information_schema.sessions s "
                    + "where s.session_id = as_fence_lease.session_id "
                    + "and cast(extract(epoch from s.session_start) * 1000000 as bigint) = as_fence_lease.session_start)"),
    POSTGRESQL("select pid, cast(extract(epoch from backend_start) * 1000000 as bigint) "
            + "from pg_stat_activity where pid = pg_backend_pid()",
            // a start the user may not see (another user's session) counts as the same session: never taken as ended
            "select count(*) from pg_stat_activity where pid = ? "
                    + "and (backend_start is null or cast(extract(epoch from backend_start) * 1000000 as bigint) = ?)",
            "select pg_terminate_backend(pid) from pg_stat_activity where pid = ? "
                    + "and cast(extract(epoch from backend_start) * 1000000 as bigint) = ?",
            "delete from as_fence_lease where not exists (select 1 from pg_stat_activity a "
                    + "where a.pid = as_fence_lease.session_id and (a.backend_start is null or "
                    + "cast(extract(epoch from a.backend_start) * 1000000 as bigint) = as_fence_lease.session_start))"),
    MARIADB(null, "select count(*) from dual where is_used_lock(?) = ?", "kill connection ?",
            "delete from as_fence_lease "
                    + "where coalesce(is_used_lock(concat('as_lease_', session_start)), -1) <> session_id");

    private static final int H2_ATTEMPTS = 5;
    private static final int H2_GENERAL_ERROR = 50000;

    /** One server session: its id and what tells it from an earlier or later session with the same id. */
    record Session(long id, long start) {
    }

    private final String current;
    private final String alive;
    private final String end;
    private final String forgetEnded;

    ServerSessions(String current, String alive, String end, String forgetEnded) {
        this.current = current;
        this.alive = alive;
        this.end = end;
        this.forgetEnded = forgetEnded;
    }

    static ServerSessions of(ShardSql sql) {
        return switch (sql) {
            case H2 -> H2;
            case POSTGRESQL -> POSTGRESQL;
            case MARIADB -> MARIADB;
        };
    }

    /** The session of {@code connection} (on MariaDB, takes its named lock: the session holds it until it ends). */
    Session current(Connection connection) throws SQLException {
        if (this == MARIADB) {
            long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
            try (PreparedStatement ps = connection.prepareStatement("select connection_id(), get_lock(?, 0)")) {
                ps.setString(1, lockName(token));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(2) != 1) {
                        throw new SQLException("the session could not take its named lock " + lockName(token));
                    }
                    return new Session(rs.getLong(1), token);
                }
            }
        }
        return retryingSessionListRace(() -> {
            try (PreparedStatement ps = connection.prepareStatement(current); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the database does not list the connection's own session");
                }
                return new Session(rs.getLong(1), rs.getLong(2));
            }
        });
    }

    /**
     * {@code session} as the server describes it, asked on another session's {@code connection}: its id, user, client
     * and what it is doing, so that an operator can tell which instance holds it. Never a credential.
     */
    String describe(Connection connection, Session session) throws SQLException {
        String query = switch (this) {
            case H2 -> "select user_name as \"user\", session_start as \"connected\", session_state as \"state\" "
                    + "from information_schema.sessions where session_id = ?";
            case POSTGRESQL -> "select usename as \"user\", client_addr || ':' || client_port as \"client\", "
                    + "application_name as \"application\", backend_start as \"connected\", state, "
                    + "xact_start as \"in transaction since\" from pg_stat_activity where pid = ?";
            case MARIADB -> "select user as `user`, host as `client`, command as `state`, time as `seconds in state` "
                    + "from information_schema.processlist where id = ?";
        };
        StringBuilder described = new StringBuilder("session ").append(session.id());
        try (PreparedStatement ps = connection.prepareStatement(query)) {
            ps.setLong(1, session.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return described.append(" (ended)").toString();
                }
                java.sql.ResultSetMetaData columns = rs.getMetaData();
                String separator = " (";
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    if (value != null && !value.toString().isEmpty()) {
                        described.append(separator).append(columns.getColumnLabel(i)).append(' ').append(value);
                        separator = ", ";
                    }
                }
                return described.append(separator.equals(", ") ? ")" : "").toString();
            }
        }
    }

    /** Whether {@code session} still exists, asked on another session's {@code connection}. */
    boolean alive(Connection connection, Session session) throws SQLException {
        return retryingSessionListRace(() -> {
            try (PreparedStatement ps = connection.prepareStatement(alive)) {
                bind(ps, session);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getLong(1) > 0;
                }
            }
        });
    }

    /**
     * Asks the server to end {@code session} (its transaction rolls back); the caller then waits until it is no longer
     * {@link #alive}. Needs the right to end the session: on PostgreSQL the privileges of the session's user (the same
     * user, or a member of its role), on MariaDB the same user or {@code CONNECTION ADMIN}, on H2 an administrator.
     */
    void end(Connection connection, Session session) throws SQLException {
        if (this == MARIADB) {
            if (!alive(connection, session)) {
                return; // the id may belong to another session now
            }
            try (PreparedStatement ps = connection.prepareStatement(end)) {
                ps.setLong(1, session.id());
                ps.execute();
            } catch (SQLException e) {
                if (alive(connection, session)) {
                    throw e;
                }
            }
            return;
        }
        if (this == POSTGRESQL) {
            refuseHiddenSession(connection, session);
        }
        retryingSessionListRace(() -> {
            try (PreparedStatement ps = connection.prepareStatement(end)) {
                bind(ps, session);
                ps.executeQuery().close();
            }
            return null;
        });
    }

    /**
     * Refuses to end a PostgreSQL session whose start this user may not see: it cannot tell it from a later session
     * that reuses the pid (and may not end it either).
     */
    private static void refuseHiddenSession(Connection connection, Session session) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select count(*) from pg_stat_activity where pid = ? and backend_start is null")) {
            ps.setLong(1, session.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    throw new SQLException("session " + session.id() + " belongs to a user whose sessions this user "
                            + "may not see, so it can neither tell it from a later session with the same pid nor end "
                            + "it", "42501");
                }
            }
        }
    }

    /** Deletes the rows of {@code as_fence_lease} whose sessions have ended, in one statement. */
    void forgetEnded(Connection connection) throws SQLException {
        retryingSessionListRace(() -> {
            try (PreparedStatement ps = connection.prepareStatement(forgetEnded)) {
                return ps.executeUpdate();
            }
        });
    }

    private <T> T retryingSessionListRace(SqlCall<T> call) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.run();
            } catch (SQLException e) {
                if (this != H2 || attempt == H2_ATTEMPTS || !isH2SessionListRace(e)) {
                    throw e;
                }
            }
        }
    }

    static boolean isH2SessionListRace(SQLException e) {
        return e.getErrorCode() == H2_GENERAL_ERROR && e.getCause() instanceof NullPointerException;
    }

    @FunctionalInterface
    private interface SqlCall<T> {
        T run() throws SQLException;
    }

    private void bind(PreparedStatement ps, Session session) throws SQLException {
        if (this == MARIADB) {
            ps.setString(1, lockName(session.start()));
            ps.setLong(2, session.id());
        } else {
            ps.setLong(1, session.id());
            ps.setLong(2, session.start());
        }
    }

    private static String lockName(long token) {
        return "as_lease_" + token;
    }
}
