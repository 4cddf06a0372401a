package org.atomicshards.hibernate.internal.connection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.ShardSpec;

/**
 * Keeps each H2 in-memory shard database alive for as long as its pool: H2 drops a named in-memory database
 * ({@code jdbc:h2:mem:shop_0}, or {@code mem:} on an H2 server) when its last connection closes unless the URL sets
 * {@code DB_CLOSE_DELAY}, and the next connection then finds a new, empty database. Between the boot's schema, the
 * pool closing an idle connection and the first fan-out there is always such a moment. So the keeper holds one
 * connection of its own to each such database, opened before the shard's pool opens any and closed after the pool is
 * closed: the database and its rows live exactly as long as the pool, and closing the factory frees their memory.
 *
 * <p>A URL that sets {@code DB_CLOSE_DELAY} (any value) is left alone: its author chose the database's lifetime. The
 * kept connection counts against no pool size and is never handed out. Thread-safe.
 */
final class InMemoryDatabaseKeeper implements AutoCloseable {

    /** A named in-memory database, embedded or on an H2 server, and the settings after its name. */
    private static final Pattern NAMED_IN_MEMORY =
            Pattern.compile("(?i)jdbc:h2:(?:(?:tcp|ssl)://[^/]+/)?mem:[^;]+(;.*)?");
    private static final Pattern CLOSE_DELAY_SETTING = Pattern.compile("(?i);\\s*DB_CLOSE_DELAY\\s*=");

    private final Map<ShardId, Connection> kept = new ConcurrentHashMap<>();

    /** Whether H2 drops the database at {@code url} when its last connection closes. */
    static boolean closesWithLastConnection(String url) {
        return NAMED_IN_MEMORY.matcher(url).matches() && !CLOSE_DELAY_SETTING.matcher(url).find();
    }

    /**
     * Opens the connection that keeps {@code shard}'s database alive, if its URL {@linkplain #closesWithLastConnection
     * needs one} and none is held yet. Does nothing when the connection cannot be opened: the pool's first connection
     * then fails the same way and reports it, naming the shard.
     */
    void keep(ShardSpec shard) {
        if (!closesWithLastConnection(shard.url()) || kept.containsKey(shard.id())) {
            return;
        }
        Properties credentials = new Properties();
        if (shard.user() != null) {
            credentials.setProperty("user", shard.user());
        }
        if (shard.password() != null) {
            credentials.setProperty("password", shard.password());
        }
        try {
            Connection connection = DriverManager.getConnection(shard.url(), credentials);
            Connection earlier = kept.putIfAbsent(shard.id(), connection);
            if (earlier != null) {
                closeQuietly(connection);
            }
        } catch (SQLException e) {
            // reported by the pool's first connection
        }
    }

    /** Closes the connection kept for {@code shard}, if any: H2 drops the database once the pool's are closed too. */
    void release(ShardId shard) {
        Connection connection = kept.remove(shard);
        if (connection != null) {
            closeQuietly(connection);
        }
    }

    /** Whether a connection is kept for {@code shard}. */
    boolean keeps(ShardId shard) {
        return kept.containsKey(shard);
    }

    /** Releases every kept connection. */
    @Override
    public void close() {
        kept.keySet().forEach(this::release);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // an in-memory database's connection does not fail to close; nothing to do if it did
        }
    }
}
