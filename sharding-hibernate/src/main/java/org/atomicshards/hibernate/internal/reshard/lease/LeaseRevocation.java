package org.atomicshards.hibernate.internal.reshard.lease;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.move.LocalTransaction;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;

/**
 * The operation's side of {@link ConnectionLeases}: before an operation changes ownership on a shard it
 * {@linkplain #arm arms} the shard (no connection leases there from then on) and waits until every session that
 * leased before has ended; as it finishes it {@linkplain #disarm disarms} it with the map version it left. An
 * operation records its arm on the shard itself ({@code as_fence_arm}, one row per operation), so a resumed operation
 * arms again without counting twice, and a crashed one leaves its shards armed (fenced, as safe as before leases)
 * until it is resumed or {@link #disarmFinished found finished}.
 *
 * <p>Instances give their leased connections back at their next refresh. A session still there after the grace stops
 * the operation before it changes any ownership (the shard stays armed; a resume waits anew), or, where the operator
 * allowed it ({@code atomicshards.resharding.end_leased_sessions}), is ended by the server ({@link ServerSessions#end}):
 * its transaction rolls back and its unit of work fails. Thread-safe.
 */
public final class LeaseRevocation {

    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");
    private static final long POLL_MILLIS = 20;

    private final ShardPools pools;
    private final OwnershipFence fence;
    private final Duration grace;
    private final boolean endSessions;

    /**
     * @param grace       how long leased sessions may run on after the arm
     * @param endSessions whether the server is then asked to end them (else the operation stops)
     */
    public LeaseRevocation(ShardPools pools, OwnershipFence fence, Duration grace, boolean endSessions) {
        this.pools = pools;
        this.fence = fence;
        this.grace = grace;
        this.endSessions = endSessions;
    }

    /**
     * Arms {@code shard} for operation {@code operation} and returns once no session holds a lease on it.
     *
     * @throws SQLException if the shard cannot be reached, or a leased session was not given back within the grace
     *         and could not (or may not) be ended (the arm stays: the shard is fenced, and a resume arms again and
     *         waits anew)
     */
    public void arm(ShardId shard, String operation) throws SQLException {
        ShardSql sql = fence.prepare(shard);
        try (Connection connection = pools.connection(shard)) {
            LocalTransaction.run(connection, () -> {
                lockState(connection);
                boolean armed;
                try (PreparedStatement ps = connection.prepareStatement(
                        "select count(*) from as_fence_arm where operation_id = ?")) {
                    ps.setString(1, operation);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        armed = rs.getLong(1) > 0;
                    }
                }
                if (!armed) {
                    try (PreparedStatement ps = connection.prepareStatement(
                            "insert into as_fence_arm (operation_id) values (?)")) {
                        ps.setString(1, operation);
                        ps.executeUpdate();
                    }
                    try (PreparedStatement ps = connection.prepareStatement(
                            "update as_lease_state set armed = armed + 1 where id = 1")) {
                        ps.executeUpdate();
                    }
                }
            });
        }
        pools.retireConnections(shard); // this instance's own leases: it need not wait for its next refresh
        awaitLeasesEnded(shard, ServerSessions.of(sql));
    }

    private void awaitLeasesEnded(ShardId shard, ServerSessions sessions) throws SQLException {
        long start = System.nanoTime();
        long graceNanos = grace.toNanos();
        boolean asked = false;
        try (Connection connection = pools.connection(shard)) {
            connection.setAutoCommit(true);
            while (true) {
                sessions.forgetEnded(connection);
                List<ServerSessions.Session> leased = leases(connection);
                if (leased.isEmpty()) {
                    return;
                }
                long waited = System.nanoTime() - start;
                if (waited >= graceNanos && !endSessions) {
                    throw new SQLTimeoutException(leased.size() + " sessions still hold write leases on shard '"
                            + shard + "' " + grace.toMillis() + " ms after the operation armed it: "
                            + describe(connection, sessions, leased) + ". The operation stopped before changing any "
                            + "ownership; the shard stays armed, so those sessions lease nothing new. Fix: let the "
                            + "instances holding them refresh (atomicshards.catalog.refresh_interval_ms) or end their "
                            + "long transactions, then resume the operation; or let operations end such sessions "
                            + "(atomicshards.resharding.end_leased_sessions=true, which needs the right to end them)");
                }
                if (waited >= graceNanos) {
                    if (asked && waited >= 2 * graceNanos + Duration.ofSeconds(1).toNanos()) {
                        throw new SQLTimeoutException(leased.size() + " leased sessions on shard '" + shard + "' "
                                + "were asked to end " + grace.toMillis() + " ms ago and are still there (server "
                                + "session ids " + leased.stream().limit(10).map(ServerSessions.Session::id).toList()
                                + "). The operation stops before its next step, the shard armed (fenced). Fix: end "
                                + "those sessions on the database, then resume the operation");
                    }
                    if (!asked) { // once: the shard is armed, so no session joins the list, and those asked end
                        LOG.warning("Shard '" + shard + "': " + leased.size() + " leased connections were not given "
                                + "back within " + grace.toMillis() + " ms (an instance that does not refresh, or a "
                                + "long transaction); ending their sessions, whose transactions roll back");
                        for (ServerSessions.Session session : leased) {
                            end(connection, sessions, shard, session);
                        }
                        asked = true;
                    }
                }
                sleep();
            }
        }
    }

    /**
     * The first ten of {@code leased}, each as the server describes it (its client, for a session of another host), or
     * by its id alone where this user may not read the server's session list.
     */
    private static String describe(Connection connection, ServerSessions sessions,
                                   List<ServerSessions.Session> leased) {
        List<String> described = new ArrayList<>();
        for (ServerSessions.Session session : leased.subList(0, Math.min(10, leased.size()))) {
            try {
                described.add(sessions.describe(connection, session));
            } catch (SQLException unreadable) {
                described.add("session " + session.id());
            }
        }
        return String.join(", ", described) + (leased.size() > 10 ? " and " + (leased.size() - 10) + " more" : "");
    }

    private static void end(Connection connection, ServerSessions sessions, ShardId shard,
                            ServerSessions.Session session) throws SQLException {
        try {
            sessions.end(connection, session);
        } catch (SQLException e) {
            throw new SQLException("A session leased on shard '" + shard + "' outlasted the grace and the database "
                    + "refused to end it (" + e.getMessage() + "). Fix: let the user this instance connects to the "
                    + "shard as see and end the sessions of the users the instances connect as (PostgreSQL: a member "
                    + "of their roles, or of pg_read_all_stats and pg_signal_backend; MariaDB: the CONNECTION ADMIN "
                    + "privilege), or let the instances holding them refresh "
                    + "(atomicshards.catalog.refresh_interval_ms); then resume the operation", e.getSQLState(), e);
        }
    }

    /**
     * Removes operation {@code operation}'s arm from {@code shard} and raises its lease version to {@code mapVersion}:
     * from then on instances whose map is at least that version lease connections there again, unless another
     * operation still arms it.
     */
    public void disarm(ShardId shard, String operation, int mapVersion) throws SQLException {
        fence.prepare(shard);
        try (Connection connection = pools.connection(shard)) {
            LocalTransaction.run(connection, () -> {
                lockState(connection);
                int removed;
                try (PreparedStatement ps = connection.prepareStatement(
                        "delete from as_fence_arm where operation_id = ?")) {
                    ps.setString(1, operation);
                    removed = ps.executeUpdate();
                }
                try (PreparedStatement ps = connection.prepareStatement("update as_lease_state set armed = armed - ?, "
                        + "lease_version = case when lease_version < ? then ? else lease_version end where id = 1")) {
                    ps.setInt(1, removed);
                    ps.setLong(2, mapVersion);
                    ps.setLong(3, mapVersion);
                    ps.executeUpdate();
                }
            });
        }
    }

    /**
     * Disarms {@code shard} of the operations that armed it and are no longer unfinished (stopped after their end and
     * before their disarm). The order is what makes it safe: the arms are read first, and an operation is in the
     * journal before it arms, so an arm read belongs to an operation {@code unfinished} (read next) still lists while it
     * runs; the map version is read last ({@code latestMapVersion}, the catalog's), so it is at least the version any
     * operation found finished left behind.
     */
    public void disarmFinished(ShardId shard, Supplier<Set<String>> unfinished, IntSupplier latestMapVersion)
            throws SQLException {
        ShardSql sql = fence.prepare(shard);
        List<String> arms = new ArrayList<>();
        try (Connection connection = pools.connection(shard)) {
            connection.setAutoCommit(true);
            try (PreparedStatement ps = connection.prepareStatement(
                    sql.bookkeepingRead("select operation_id from as_fence_arm"));
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    arms.add(rs.getString(1));
                }
            }
        }
        if (arms.isEmpty()) {
            return;
        }
        arms.removeAll(unfinished.get());
        if (arms.isEmpty()) {
            return;
        }
        int mapVersion = latestMapVersion.getAsInt();
        for (String operation : arms) {
            disarm(shard, operation, mapVersion);
        }
    }

    private static void lockState(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select armed from as_lease_state where id = 1 for update")) {
            ps.executeQuery().close();
        }
    }

    private static List<ServerSessions.Session> leases(Connection connection) throws SQLException {
        List<ServerSessions.Session> leases = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(
                "select session_id, session_start from as_fence_lease");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                leases.add(new ServerSessions.Session(rs.getLong(1), rs.getLong(2)));
            }
        }
        return leases;
    }

    private static void sleep() throws SQLException {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for leased sessions to end", e);
        }
    }
}
