package org.atomicshards.testing;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The replica servers of the local PostgreSQL and MariaDB servers that {@code .ci/replicas start} runs: a streaming
 * standby on port 5433 and a MariaDB replica on port 3307 (system properties
 * {@code atomicshards.it.postgres.replica_port} and {@code atomicshards.it.mariadb.replica_port} override them). Every database created on a primary appears on
 * its replica. Tests that need them run only when {@code atomicshards.it.replicas=true} (as {@code .ci/run} sets); the
 * control script for stopping, starting and re-creating them is {@code atomicshards.it.replicas.control}.
 */
public final class ReplicaServers {

    private final DatabaseKind kind;

    private ReplicaServers(DatabaseKind kind) {
        this.kind = kind;
    }

    public static ReplicaServers of(DatabaseKind kind) {
        if (kind == DatabaseKind.H2) {
            throw new IllegalArgumentException("H2 has no replicas");
        }
        return new ReplicaServers(kind);
    }

    /** Whether the replica servers were started for this run ({@code atomicshards.it.replicas=true}). */
    public static boolean enabled() {
        return Boolean.getBoolean("atomicshards.it.replicas");
    }

    private int port() {
        String property = kind == DatabaseKind.POSTGRESQL ? "atomicshards.it.postgres.replica_port"
                : "atomicshards.it.mariadb.replica_port";
        return Integer.getInteger(property, kind == DatabaseKind.POSTGRESQL ? 5433 : 3307);
    }

    /** {@code shard}'s database on the replica server. */
    public String replicaUrl(ShardDatabase shard) {
        return onReplicaServer(shard.url());
    }

    /** {@code jdbcUrl} (of a database on the primary server) with the replica server's port. */
    private String onReplicaServer(String jdbcUrl) {
        URI server = URI.create(jdbcUrl.substring("jdbc:".length()));
        return "jdbc:" + server.getScheme() + "://" + server.getHost() + ":" + port() + server.getRawPath();
    }

    /** The settings naming replica {@code r1} of every shard of {@code dbs} (credentials: the shards'). */
    public Map<String, Object> settings(ShardDatabases dbs) {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (ShardDatabase shard : dbs.shards()) {
            settings.put("atomicshards.shard." + shard.id() + ".replica.r1.url", replicaUrl(shard));
        }
        return settings;
    }

    /** The port a connection of a shard session's server listens on (tells a replica's connection from a primary's). */
    public static int serverPort(Connection connection, DatabaseKind kind) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(kind == DatabaseKind.POSTGRESQL
                     ? "select inet_server_port()" : "select @@port")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Whether {@code port} is the replica server's. */
    public boolean isReplicaPort(int port) {
        return port == port();
    }

    /** Stops applying the primary's changes (the replica keeps receiving them): it lags from now on. */
    public void pauseReplay() {
        onReplica(kind == DatabaseKind.POSTGRESQL ? "select pg_wal_replay_pause()" : "stop slave sql_thread");
    }

    public void resumeReplay() {
        onReplica(kind == DatabaseKind.POSTGRESQL ? "select pg_wal_replay_resume()" : "start slave sql_thread");
    }

    /** Waits until the replica has applied everything its primary committed so far. */
    public void awaitCaughtUp(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String position = scalar(kind.adminUrl(), kind == DatabaseKind.POSTGRESQL
                ? "select pg_current_wal_lsn()::text" : "select @@gtid_binlog_pos");
        while (System.nanoTime() < deadline) {
            String answer = kind == DatabaseKind.POSTGRESQL
                    ? scalar(replicaAdminUrl(), "select pg_last_wal_replay_lsn() >= cast(? as pg_lsn)", position)
                    : scalar(replicaAdminUrl(), "select master_gtid_wait(?, 0) = 0", position);
            if (Set.of("t", "true", "1").contains(answer)) { // how each driver reads a boolean as a string
                return;
            }
            sleep(20);
        }
        throw new AssertionError("The " + kind + " replica did not catch up with position " + position + " within "
                + timeout);
    }

    /**
     * Makes the replica a primary of its own, which replicates nothing any more: PostgreSQL promotes the standby;
     * MariaDB stops replication and forgets its primary. {@link #rejoin} makes it a replica again.
     */
    public void promote() {
        if (kind == DatabaseKind.POSTGRESQL) {
            onReplica("select pg_promote()");
        } else {
            onReplica("stop slave");
            onReplica("reset slave all");
        }
    }

    /**
     * Makes a {@linkplain #promote promoted} replica a replica of its primary again, from where it stopped
     * (PostgreSQL: a new standby from a fresh base backup, through the control script).
     */
    public void rejoin() {
        if (kind == DatabaseKind.POSTGRESQL) {
            control("pg-recreate");
        } else {
            onReplica("change master to master_host = '127.0.0.1', master_port = " + primaryPort()
                    + ", master_user = 'root', master_password = '', master_use_gtid = slave_pos,"
                    + " master_connect_retry = 1");
            onReplica("start slave");
        }
    }

    /** Runs the control script's {@code command} ({@code pg-stop}, {@code pg-start}, {@code pg-recreate}, ...). */
    public void control(String command) {
        String script = System.getProperty("atomicshards.it.replicas.control");
        if (script == null) {
            throw new IllegalStateException("Set atomicshards.it.replicas.control to the path of .ci/replicas");
        }
        try {
            Process process = new ProcessBuilder(script, command).inheritIO().start();
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(script + " " + command + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(script + " " + command + " could not run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(script + " " + command + " was interrupted", e);
        }
    }

    private int primaryPort() {
        int port = URI.create(kind.adminUrl().substring("jdbc:".length())).getPort();
        return port < 0 ? 3306 : port;
    }

    private String replicaAdminUrl() {
        return onReplicaServer(kind.adminUrl());
    }

    private void onReplica(String sql) {
        try (Connection c = DriverManager.getConnection(replicaAdminUrl(), kind.user(), kind.password());
             Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("On the " + kind + " replica: " + sql + ": " + e.getMessage(), e);
        }
    }

    private String scalar(String url, String sql, String... parameters) {
        try (Connection c = DriverManager.getConnection(url, kind.user(), kind.password());
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
