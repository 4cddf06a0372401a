package org.atomicshards.hibernate.internal.directory;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * An exclusive, named lock in a database, held by one connection, that serialises what several instances do at boot
 * (initialising or upgrading the catalog, running a schema action on a shard). The database's own locks are used, so
 * instances in different processes and on different machines exclude each other:
 * <ul>
 * <li>PostgreSQL: a session-level advisory lock {@code pg_advisory_lock(key)}, waited for under a local
 * {@code lock_timeout}; scoped to the database;</li>
 * <li>MariaDB/MySQL: {@code GET_LOCK(name, seconds)}; scoped to the server, so the name embeds the database;</li>
 * <li>H2: a JVM-wide lock per database URL (embedded H2 databases are reached by one JVM; AUTO_SERVER hands over
 * between processes of one machine) and, when a lock table is given, a row lock ({@code select ... for update}) in
 * an open transaction on that connection, which also excludes other processes on a server-mode H2. H2 commits the
 * open transaction on DDL, so work done under an H2 row lock must use another connection.</li>
 * </ul>
 * A lock whose connection dies is released by the database. Not reentrant.
 */
public final class DatabaseLock implements AutoCloseable {

    /** The H2 lock table; created by the catalog's H2 script V1 (and before it, by {@code create} mode). */
    public static final String H2_LOCK_TABLE = "as_catalog_lock";
    static final String H2_CREATE_LOCK_TABLE = "create table if not exists as_catalog_lock (id integer not null primary key)";
    static final String H2_LOCK_ROW =
            "insert into as_catalog_lock (id) select 1 where not exists (select id from as_catalog_lock where id = 1)";

    private static final ConcurrentMap<String, Semaphore> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Connection connection;
    private final CatalogDialect dialect;
    private final String name;
    private final Semaphore jvmLock;
    private final boolean restoreAutoCommit;

    private DatabaseLock(Connection connection, CatalogDialect dialect, String name, Semaphore jvmLock,
                         boolean restoreAutoCommit) {
        this.connection = connection;
        this.dialect = dialect;
        this.name = name;
        this.jvmLock = jvmLock;
        this.restoreAutoCommit = restoreAutoCommit;
    }

    /**
     * Waits at most {@code waitMillis} for the lock {@code name} on the database of {@code connection}.
     *
     * @param h2RowLock on H2, whether to take the row lock of {@link #H2_LOCK_TABLE} as well (the table must exist)
     * @return the lock, held until {@link #close()}; null if another holder kept it for the whole wait
     * @throws SQLException if the database refuses the lock statement (e.g. the H2 lock table is missing)
     */
    public static DatabaseLock acquire(Connection connection, CatalogDialect dialect, String name, long waitMillis,
                                       boolean h2RowLock) throws SQLException {
        return switch (dialect) {
            case POSTGRESQL -> postgres(connection, name, waitMillis);
            case MARIADB -> mariadb(connection, name, waitMillis);
            case H2 -> h2(connection, name, waitMillis, h2RowLock);
        };
    }

    private static DatabaseLock postgres(Connection connection, String name, long waitMillis) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (PreparedStatement ps = connection.prepareStatement("select set_config('lock_timeout', ?, true)")) {
                ps.setString(1, Math.max(1, waitMillis) + "ms");
                ps.execute();
            }
            try (PreparedStatement ps = connection.prepareStatement("select pg_advisory_lock(?)")) {
                ps.setLong(1, key(name));
                ps.execute();
            }
            connection.commit(); // ends the local lock_timeout; the session-level advisory lock stays
            return new DatabaseLock(connection, CatalogDialect.POSTGRESQL, name, null, false);
        } catch (SQLException e) {
            connection.rollback();
            if ("55P03".equals(e.getSQLState())) { // lock_not_available: lock_timeout expired
                return null;
            }
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static DatabaseLock mariadb(Connection connection, String name, long waitMillis) throws SQLException {
        String lockName = mariadbName(connection, name);
        try (PreparedStatement ps = connection.prepareStatement("select get_lock(?, ?)")) {
            ps.setString(1, lockName);
            ps.setLong(2, Math.max(1, (waitMillis + 999) / 1000));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Object result = rs.getObject(1);
                if (result == null) {
                    throw new SQLException("GET_LOCK('" + lockName + "') failed");
                }
                return rs.getLong(1) == 1 ? new DatabaseLock(connection, CatalogDialect.MARIADB, lockName, null, false) : null;
            }
        }
    }

    /** MariaDB lock names are server-wide and at most 64 characters: the name plus as much of the database as fits. */
    private static String mariadbName(Connection connection, String name) throws SQLException {
        String database = connection.getCatalog();
        String full = database == null ? name : name + "." + database;
        return full.length() <= 64 ? full : full.substring(0, 64);
    }

    private static DatabaseLock h2(Connection connection, String name, long waitMillis, boolean rowLock)
            throws SQLException {
        Semaphore jvmLock = JVM_LOCKS.computeIfAbsent(name + "@" + connection.getMetaData().getURL(), k -> new Semaphore(1));
        long start = System.nanoTime();
        try {
            if (!jvmLock.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for lock " + name, e);
        }
        if (!rowLock) {
            return new DatabaseLock(connection, CatalogDialect.H2, name, jvmLock, false);
        }
        boolean autoCommit = connection.getAutoCommit();
        try {
            connection.setAutoCommit(false);
            long left = Math.max(1, waitMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            try (PreparedStatement ps = connection.prepareStatement("set lock_timeout ?")) {
                ps.setLong(1, left);
                ps.execute();
            }
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("select id from " + H2_LOCK_TABLE + " where id = 1 for update")) {
                if (!rs.next()) {
                    throw new SQLException("Table " + H2_LOCK_TABLE + " has no row with id 1");
                }
            }
            return new DatabaseLock(connection, CatalogDialect.H2, name, jvmLock, autoCommit);
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
                connection.setAutoCommit(autoCommit);
            } finally {
                jvmLock.release();
            }
            if (e instanceof SQLException sql && sql.getErrorCode() == 50200) { // LOCK_TIMEOUT_1
                return null;
            }
            throw e;
        }
    }

    /** A stable 64-bit key for a PostgreSQL advisory lock (FNV-1a of the name). */
    static long key(String name) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** Releases the lock; the connection stays open (returning it to its pool is the caller's job). */
    @Override
    public void close() throws SQLException {
        switch (dialect) {
            case POSTGRESQL -> {
                try (PreparedStatement ps = connection.prepareStatement("select pg_advisory_unlock(?)")) {
                    ps.setLong(1, key(name));
                    ps.execute();
                }
            }
            case MARIADB -> {
                try (PreparedStatement ps = connection.prepareStatement("select release_lock(?)")) {
                    ps.setString(1, name);
                    ps.execute();
                }
            }
            case H2 -> {
                try {
                    if (!connection.getAutoCommit()) {
                        connection.rollback();
                        connection.setAutoCommit(restoreAutoCommit);
                    }
                } finally {
                    jvmLock.release();
                }
            }
        }
    }
}
