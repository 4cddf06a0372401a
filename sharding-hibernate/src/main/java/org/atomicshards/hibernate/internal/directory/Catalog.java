package org.atomicshards.hibernate.internal.directory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.atomicshards.hibernate.CatalogException;
import org.atomicshards.hibernate.internal.config.Redaction;

/**
 * The catalog database holding the shard directory, accessed over plain JDBC with bound parameters only. Creates
 * its tables when missing. Every method runs in its own short transaction; none is called on a routed operation
 * (the {@link CachedShardDirectory} answers those from memory).
 */
public final class Catalog implements AutoCloseable {

    private static final String[] DDL = {
        "create table as_map_version (version integer not null primary key, virtual_shards integer not null, "
                + "created_at timestamp not null, note varchar(200))",
        "create table as_virtual_shard (version integer not null, virtual_shard integer not null, "
                + "shard_id varchar(64) not null, status varchar(16) not null, primary key (version, virtual_shard))",
        "create table as_placement (unit_name varchar(255) not null, unit_key varchar(255) not null, "
                + "virtual_shard integer not null, primary key (unit_name, unit_key))",
        "create table as_ring_member (unit_name varchar(255) not null, shard_id varchar(64) not null, "
                + "primary key (unit_name, shard_id))",
        "create table as_id_block (block_name varchar(255) not null primary key, next_value bigint not null)",
        "create table as_operation_log (at_time timestamp not null, operation varchar(64) not null, "
                + "detail varchar(1000) not null)"
    };

    private final HikariDataSource dataSource;
    private final String url;

    public Catalog(String url, String user, String password, String poolName) {
        this.url = Redaction.url(url);
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(0);
        config.setAutoCommit(true);
        try {
            this.dataSource = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new CatalogException("Cannot open the shard catalog at " + this.url + " (setting atomicshards.catalog.url): "
                    + e.getMessage() + ". Fix: point atomicshards.catalog.url at a reachable database", e);
        }
    }

    /** Creates the directory tables that do not exist yet. */
    public void createTablesIfMissing() {
        run("create the directory tables", connection -> {
            for (String ddl : DDL) {
                String table = ddl.substring("create table ".length(), ddl.indexOf(' ', "create table ".length()));
                if (!tableExists(connection, table)) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(ddl);
                    }
                }
            }
            return null;
        });
    }

    /**
     * Whether {@code table} exists in the connection's current catalog and schema (a same-named table in another
     * schema is not ours: the directory's statements use unqualified names, which resolve to the current schema).
     */
    private static boolean tableExists(Connection connection, String table) throws SQLException {
        var metaData = connection.getMetaData();
        String escape = metaData.getSearchStringEscape();
        String schema = connection.getSchema();
        String schemaPattern = schema == null ? null : likeLiteral(schema, escape);
        for (String candidate : new String[] {table, table.toUpperCase(java.util.Locale.ROOT)}) {
            try (ResultSet rs = metaData.getTables(connection.getCatalog(), schemaPattern,
                    likeLiteral(candidate, escape), null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@code name} as a metadata search pattern matching only itself ({@code _} and {@code %} escaped). */
    private static String likeLiteral(String name, String escape) {
        if (escape == null || escape.isEmpty()) {
            return name;
        }
        return name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
    }

    /** The latest stored map, or empty if the catalog is new. */
    public Optional<StoredMap> latestMap() {
        return run("read the virtual shard map", connection -> {
            Integer version = null;
            int virtualShards = 0;
            try (PreparedStatement ps = connection.prepareStatement(
                    "select version, virtual_shards from as_map_version order by version desc")) {
                ps.setMaxRows(1);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        version = rs.getInt(1);
                        virtualShards = rs.getInt(2);
                    }
                }
            }
            if (version == null) {
                return Optional.<StoredMap>empty();
            }
            String[] owners = new String[virtualShards];
            try (PreparedStatement ps = connection.prepareStatement(
                    "select virtual_shard, shard_id from as_virtual_shard where version = ?")) {
                ps.setInt(1, version);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int v = rs.getInt(1);
                        if (v < 0 || v >= virtualShards) {
                            throw new CatalogException("The catalog at " + url + " is corrupt: map version " + version
                                    + " names virtual shard " + v + " of " + virtualShards);
                        }
                        owners[v] = rs.getString(2);
                    }
                }
            }
            return Optional.of(new StoredMap(version, owners));
        });
    }

    /** Stores {@code owners} as map version {@code version}, in one transaction, and logs the change. */
    public void writeMap(int version, String[] owners, String note) {
        transaction("write virtual shard map version " + version, connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_map_version (version, virtual_shards, created_at, note) values (?, ?, ?, ?)")) {
                ps.setInt(1, version);
                ps.setInt(2, owners.length);
                ps.setTimestamp(3, Timestamp.from(Instant.now()));
                ps.setString(4, note);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_virtual_shard (version, virtual_shard, shard_id, status) values (?, ?, ?, ?)")) {
                for (int v = 0; v < owners.length; v++) {
                    ps.setInt(1, version);
                    ps.setInt(2, v);
                    ps.setString(3, owners[v]);
                    ps.setString(4, "ONLINE");
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            log(connection, "MAP_VERSION", "version " + version + ": " + note);
            return null;
        });
    }

    /** Every placement of every unit: unit name → key text → virtual shard. */
    public Map<String, Map<String, Integer>> placements() {
        return run("read the placements", connection -> {
            Map<String, Map<String, Integer>> result = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "select unit_name, unit_key, virtual_shard from as_placement");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    result.computeIfAbsent(rs.getString(1), u -> new HashMap<>()).put(rs.getString(2), rs.getInt(3));
                }
            }
            return result;
        });
    }

    /** The stored placement of one key, or empty. */
    public Optional<Integer> placement(String unit, String key) {
        return run("read a placement", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "select virtual_shard from as_placement where unit_name = ? and unit_key = ?")) {
                ps.setString(1, unit);
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getInt(1)) : Optional.<Integer>empty();
                }
            }
        });
    }

    /**
     * Records a placement; if the key was placed concurrently, keeps the stored one.
     *
     * @return the virtual shard now recorded for the key
     */
    public int place(String unit, String key, int virtualShard) {
        try {
            return transaction("place a unit", connection -> {
                try (PreparedStatement ps = connection.prepareStatement(
                        "insert into as_placement (unit_name, unit_key, virtual_shard) values (?, ?, ?)")) {
                    ps.setString(1, unit);
                    ps.setString(2, key);
                    ps.setInt(3, virtualShard);
                    ps.executeUpdate();
                }
                return virtualShard;
            });
        } catch (CatalogException e) {
            return placement(unit, key).orElseThrow(() -> e);
        }
    }

    /** The recorded ring members of a consistent-hash unit; empty if none were recorded yet. */
    public List<String> ringMembers(String unit) {
        return run("read ring members", connection -> {
            List<String> members = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "select shard_id from as_ring_member where unit_name = ? order by shard_id")) {
                ps.setString(1, unit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        members.add(rs.getString(1));
                    }
                }
            }
            return members;
        });
    }

    /** Records the ring members of a consistent-hash unit. */
    public void writeRingMembers(String unit, List<String> shards) {
        transaction("record ring members", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_ring_member (unit_name, shard_id) values (?, ?)")) {
                for (String shard : shards) {
                    ps.setString(1, unit);
                    ps.setString(2, shard);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            log(connection, "RING_MEMBERS", unit + ": " + shards);
            return null;
        });
    }

    /**
     * Reserves {@code size} consecutive ids of the named sequence, starting at {@code firstValue} for a new
     * sequence; safe against concurrent allocators (optimistic compare-and-set).
     *
     * @return the first id of the reserved block
     */
    public long allocateBlock(String name, long size, long firstValue) {
        for (int attempt = 0; attempt < 100; attempt++) {
            Long reserved = transaction("allocate an id block", connection -> {
                Long current = null;
                try (PreparedStatement ps = connection.prepareStatement(
                        "select next_value from as_id_block where block_name = ?")) {
                    ps.setString(1, name);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            current = rs.getLong(1);
                        }
                    }
                }
                if (current == null) {
                    try (PreparedStatement ps = connection.prepareStatement(
                            "insert into as_id_block (block_name, next_value) values (?, ?)")) {
                        ps.setString(1, name);
                        ps.setLong(2, firstValue + size);
                        ps.executeUpdate();
                    }
                    return firstValue;
                }
                try (PreparedStatement ps = connection.prepareStatement(
                        "update as_id_block set next_value = ? where block_name = ? and next_value = ?")) {
                    ps.setLong(1, current + size);
                    ps.setString(2, name);
                    ps.setLong(3, current);
                    return ps.executeUpdate() == 1 ? current : null;
                }
            }, true);
            if (reserved != null) {
                return reserved;
            }
        }
        throw new CatalogException("Could not reserve an id block of sequence '" + name + "' in the catalog at "
                + url + " after 100 attempts (heavy contention)");
    }

    private static void log(Connection connection, String operation, String detail) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "insert into as_operation_log (at_time, operation, detail) values (?, ?, ?)")) {
            ps.setTimestamp(1, Timestamp.from(Instant.now()));
            ps.setString(2, operation);
            ps.setString(3, detail.length() > 1000 ? detail.substring(0, 1000) : detail);
            ps.executeUpdate();
        }
    }

    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T run(String what, SqlWork<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new CatalogException("Cannot " + what + " in the shard catalog at " + url + ": " + e.getMessage(), e);
        }
    }

    private <T> T transaction(String what, SqlWork<T> work) {
        return transaction(what, work, false);
    }

    private <T> T transaction(String what, SqlWork<T> work, boolean retryOnConflict) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                if (retryOnConflict && e instanceof SQLException) {
                    return null;
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new CatalogException("Cannot " + what + " in the shard catalog at " + url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }

    /** One stored version of the virtual→physical map. */
    public record StoredMap(int version, String[] owners) {
    }
}
