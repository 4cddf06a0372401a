package org.atomicshards.hibernate.internal.directory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.atomicshards.hibernate.CatalogException;
import org.atomicshards.hibernate.CatalogUnavailableException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.connection.H2ResultReuse;

/**
 * The catalog database holding the shard directory, accessed over plain JDBC with bound parameters only. Shared by
 * every instance of an application: its schema is versioned ({@link CatalogSchema}, scripts in the jar), its
 * initialisation runs under the database's own lock ({@link #exclusively}), and every write tolerates a concurrent
 * writer in another instance. Every method runs in its own short transaction; none is called on a routed operation
 * over a known key (the {@link CachedShardDirectory} answers those from memory). When the catalog cannot be reached a
 * method fails with {@link CatalogUnavailableException} within the connection timeout; the pool reconnects by itself
 * once the catalog is back.
 */
public final class Catalog implements AutoCloseable {

    /** Name of the lock that serialises the boot of instances sharing this catalog. */
    static final String LOCK_NAME = "atomicshards_catalog";

    private final HikariDataSource dataSource;
    private final String url;
    private final CatalogOptions options;

    public Catalog(String url, String user, String password, String poolName) {
        this(url, user, password, poolName, CatalogOptions.DEFAULTS);
    }

    /**
     * Opens the catalog's pool and its first connection.
     *
     * @throws CatalogUnavailableException if the catalog cannot be reached within the connection timeout
     */
    public Catalog(String url, String user, String password, String poolName, CatalogOptions options) {
        this.url = Redaction.url(url);
        this.options = options;
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        // the boot lock holds one connection while the initialisation works on another
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        config.setAutoCommit(true);
        H2ResultReuse.turnOff(config, url);
        config.setConnectionTimeout(options.connectionTimeoutMillis());
        config.setValidationTimeout(Math.min(options.connectionTimeoutMillis(), 5_000));
        // no synchronous first connection in the constructor: some drivers retry a refused connection for much
        // longer than our timeout (H2's client for about 20 s); the first getConnection() below is bounded
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        try (Connection first = pool.getConnection()) {
            first.isValid(1);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            if (H2ResultReuse.refused(e)) {
                throw new CatalogUnavailableException("The shard catalog at " + this.url + " cannot be used: "
                        + H2ResultReuse.refusal(ShardingSettings.CATALOG_USER), e);
            }
            throw new CatalogUnavailableException("Cannot reach the shard catalog at " + this.url
                    + " (setting atomicshards.catalog.url) within " + options.connectionTimeoutMillis() + " ms: "
                    + message(e) + ". Fix: point atomicshards.catalog.url at a reachable database (or raise "
                    + "atomicshards.catalog.connection_timeout_ms)", e);
        }
        this.dataSource = pool;
    }

    /**
     * Runs {@code work} while this instance holds the catalog's exclusive lock, so that instances booting at the
     * same time initialise the catalog one after the other: the first creates or upgrades the tables and writes the
     * first map, the others wait (at most the lock timeout) and then read what it wrote. {@code work} uses the
     * catalog's other methods as usual (they run on other connections).
     *
     * @throws CatalogException if the lock is not granted within the lock timeout, naming the setting to raise
     */
    public <T> T exclusively(String what, Supplier<T> work) {
        try (Connection lockConnection = dataSource.getConnection()) {
            CatalogDialect dialect = dialect(lockConnection);
            if (dialect == CatalogDialect.H2 && options.schemaAction() == CatalogSchemaAction.CREATE) {
                try (Statement statement = lockConnection.createStatement()) {
                    statement.execute(DatabaseLock.H2_CREATE_LOCK_TABLE); // H2 serialises concurrent creators
                    statement.execute(DatabaseLock.H2_LOCK_ROW); // never blocks on a locked row
                } catch (SQLException e) {
                    if (!isDuplicateKey(e)) { // a concurrent creator inserted the row first
                        throw e;
                    }
                }
            }
            DatabaseLock lock;
            try {
                lock = DatabaseLock.acquire(lockConnection, dialect, LOCK_NAME, options.lockTimeoutMillis(), true);
            } catch (SQLException e) {
                if (dialect == CatalogDialect.H2 && !CatalogSchema.tableExists(lockConnection, DatabaseLock.H2_LOCK_TABLE)) {
                    throw new CatalogException("The catalog at " + url + " lacks table " + DatabaseLock.H2_LOCK_TABLE
                            + " (schema version 1). Fix: run " + dialect.resource(CatalogSchema.SCRIPTS.get(0).fileName())
                            + " from the atomic-shards jar, or set atomicshards.catalog.schema=create", e);
                }
                throw e;
            }
            if (lock == null) {
                throw new CatalogException("Timed out after " + options.lockTimeoutMillis() + " ms waiting for the "
                        + "lock of the shard catalog at " + url + " to " + what + ": another instance holds it. Fix: "
                        + "raise atomicshards.catalog.lock_timeout_ms, or find the instance stuck in its boot");
            }
            try (lock) {
                return work.get();
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * Creates or upgrades the catalog's tables ({@code atomicshards.catalog.schema=create}) or only checks them
     * ({@code validate}). Call under {@link #exclusively}.
     *
     * @throws CatalogException naming the missing table or column and the script that creates it
     */
    public void prepareSchema() {
        run("check the catalog's schema", connection -> {
            CatalogSchema schema = new CatalogSchema(dialect(connection), url);
            if (options.schemaAction() == CatalogSchemaAction.CREATE) {
                List<Integer> applied = schema.migrate(connection);
                if (!applied.isEmpty()) {
                    log(connection, "SCHEMA", "applied catalog schema version(s) " + applied);
                }
            }
            schema.validate(connection);
            return null;
        });
    }

    /** The schema version recorded in the catalog (0 when it has none). */
    public int schemaVersion() {
        return run("read the catalog's schema version", CatalogSchema::installedVersion);
    }

    private CatalogDialect dialect(Connection connection) throws SQLException {
        return CatalogDialect.of(connection).orElseThrow(() -> new CatalogException(unsupported(connection)));
    }

    private String unsupported(Connection connection) {
        String product;
        try {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            product = "unknown";
        }
        return "The shard catalog at " + url + " is a " + product + " database; the catalog's scripts and locks exist "
                + "for PostgreSQL, MariaDB/MySQL and H2. Fix: point atomicshards.catalog.url at one of those";
    }

    /** The latest stored map, or empty if the catalog is new. */
    public Optional<StoredMap> latestMap() {
        return run("read the virtual shard map", this::latestMap);
    }

    /** {@link #latestMap()} on {@code connection}, in the caller's transaction. */
    public Optional<StoredMap> latestMap(Connection connection) throws SQLException {
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
            return Optional.empty();
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
    }

    /**
     * Stores {@code owners} as map version {@code version}, in one transaction, and logs the change. The registry
     * rows of the owners are locked first, so a concurrent {@link #retireIfOwnsNothing} either sees this map or
     * retires the shard before it and makes this write fail.
     *
     * @throws CatalogException if an owner is retired (nothing written)
     */
    public void writeMap(int version, String[] owners, String note) {
        transaction("write virtual shard map version " + version, connection -> {
            requireNotRetired(connection, java.util.Arrays.stream(owners).distinct().toList());
            insertMap(connection, version, owners, note);
            return null;
        });
    }

    /**
     * Inserts map version {@code version} on {@code connection}, inside the caller's transaction (resharding switches
     * the map and its journal in one transaction), and logs the change.
     *
     * @throws SQLException a duplicate key (SQLSTATE class 23) if another writer stored this version first
     */
    public static void insertMap(Connection connection, int version, String[] owners, String note)
            throws SQLException {
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
    }

    /** A unit of JDBC work on a catalog connection. */
    public interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} in one catalog transaction (committed if it returns, rolled back if it throws).
     *
     * @throws CatalogException (or {@link CatalogUnavailableException}) naming {@code what} if a statement fails
     */
    public <T> T inTransaction(String what, SqlWork<T> work) {
        return transaction(what, work);
    }

    /** Appends one entry to the catalog's operation log, inside the caller's transaction. */
    public static void logOperation(Connection connection, String operation, String detail) throws SQLException {
        log(connection, operation, detail);
    }

    /**
     * The identity of this catalog: when its first map version was written. A shard database whose ownership fence
     * was initialised from another catalog (a test reusing databases, a catalog recreated) is recognised by it.
     */
    public String identity() {
        return run("read the catalog's identity", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "select created_at from as_map_version where version = 1");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? "map1@" + rs.getTimestamp(1).toInstant() : "none";
            }
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
            if (!isDuplicateKey(e.getCause())) {
                throw e;
            }
            // another instance placed the key first: its placement wins
            return placement(unit, key).orElseThrow(() -> e);
        }
    }

    /** The unfinished changes of consistent-hash rings in the move journal, by unit (at most one per unit). */
    public Map<String, RingChange.Progress> ringChanges() {
        return run("read the ring changes in progress", connection -> {
            Map<String, RingChange.Progress> changes = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement("select kind, checkpoint, batch_no, state "
                    + "from as_move where kind in (?, ?) and state <> ? and state <> ?")) {
                ps.setString(1, RingChange.JOIN);
                ps.setString(2, RingChange.LEAVE);
                ps.setString(3, "DONE");
                ps.setString(4, "ABORTED");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        RingChange change = RingChange.decode(rs.getString(1), rs.getString(2));
                        changes.put(change.unitName(), new RingChange.Progress(change,
                                change.switched(rs.getInt(3), rs.getString(4))));
                    }
                }
            }
            return changes;
        });
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
     * sequence. Safe against concurrent allocators in any number of instances: the update locks the sequence's row
     * until the transaction ends, and the first block of a new sequence is inserted once (a concurrent creator's
     * duplicate key sends the loser to the update).
     *
     * @return the first id of the reserved block
     * @throws CatalogUnavailableException if the catalog cannot be reached (no id is handed out)
     */
    public long allocateBlock(String name, long size, long firstValue) {
        Long reserved = reserveExisting(name, size);
        if (reserved != null) {
            return reserved;
        }
        try {
            return transaction("allocate an id block", connection -> {
                try (PreparedStatement ps = connection.prepareStatement(
                        "insert into as_id_block (block_name, next_value) values (?, ?)")) {
                    ps.setString(1, name);
                    ps.setLong(2, firstValue + size);
                    ps.executeUpdate();
                }
                return firstValue;
            });
        } catch (CatalogException e) {
            if (!isDuplicateKey(e.getCause())) {
                throw e;
            }
            reserved = reserveExisting(name, size);
            if (reserved == null) {
                throw e;
            }
            return reserved;
        }
    }

    /**
     * Makes the named sequence hand out no id below {@code floor} from now on: creates it at {@code floor}, or raises
     * it to {@code floor} if it stands lower; a sequence already at or above it is left as it is. Ids are never handed
     * out twice by doing so, only skipped. Safe against concurrent allocators and raisers in any instance (the update
     * locks the row; a concurrent creator's duplicate key sends the loser to the update).
     *
     * @return the sequence's next value afterwards (at least {@code floor})
     * @throws CatalogUnavailableException if the catalog cannot be reached (nothing was changed)
     */
    public long raiseBlockFloor(String name, long floor) {
        for (int attempt = 0; ; attempt++) {
            try {
                return transaction("raise the floor of an id sequence", connection -> {
                    try (PreparedStatement ps = connection.prepareStatement(
                            "update as_id_block set next_value = ? where block_name = ? and next_value < ?")) {
                        ps.setLong(1, floor);
                        ps.setString(2, name);
                        ps.setLong(3, floor);
                        ps.executeUpdate();
                    }
                    try (PreparedStatement ps = connection.prepareStatement(
                            "select next_value from as_id_block where block_name = ?")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) {
                                return rs.getLong(1);
                            }
                        }
                    }
                    try (PreparedStatement ps = connection.prepareStatement(
                            "insert into as_id_block (block_name, next_value) values (?, ?)")) {
                        ps.setString(1, name);
                        ps.setLong(2, floor);
                        ps.executeUpdate();
                    }
                    return floor;
                });
            } catch (CatalogException e) {
                if (attempt > 0 || !isDuplicateKey(e.getCause())) {
                    throw e;
                }
            }
        }
    }

    /** Advances an existing sequence by {@code size}; null if the sequence has no row yet. */
    private Long reserveExisting(String name, long size) {
        return transaction("allocate an id block", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_id_block set next_value = next_value + ? where block_name = ?")) {
                ps.setLong(1, size);
                ps.setString(2, name);
                if (ps.executeUpdate() == 0) {
                    return null;
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "select next_value from as_id_block where block_name = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1) - size;
                }
            }
        });
    }

    /** One row of the shard registry: a shard, its status, its URL without credentials (may be null) and origin. */
    public record ShardRecord(String shardId, String status, String url, String origin) {

        /** Registered from an instance's {@code atomicshards.shards}. */
        public static final String CONFIG = "CONFIG";
        /** Added at run time through the admin API. */
        public static final String ADMIN = "ADMIN";

        /** Whether the shard was added at run time (rather than listed in a configuration). */
        public boolean addedAtRunTime() {
            return ADMIN.equals(origin);
        }
    }

    /** The physical shards recorded in the shard registry, with their status. */
    public Map<String, String> registeredShards() {
        Map<String, String> shards = new LinkedHashMap<>();
        shardRecords().forEach((id, record) -> shards.put(id, record.status()));
        return shards;
    }

    /** Every row of the shard registry, by shard id (ordered by registration time, then id). */
    public Map<String, ShardRecord> shardRecords() {
        return run("read the shard registry", connection -> {
            Map<String, ShardRecord> shards = new LinkedHashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "select shard_id, status, url, origin from as_shard order by registered_at, shard_id");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    shards.put(rs.getString(1), new ShardRecord(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getString(4)));
                }
            }
            return shards;
        });
    }

    /**
     * Records the configured shards not yet in the shard registry as ONLINE, with their URL (without credentials),
     * and fills in the URL of configured shards registered before the registry kept URLs (call under
     * {@link #exclusively}).
     *
     * @param urls shard id → URL without credentials, in configuration order
     */
    public void registerShards(Map<String, String> urls) {
        Map<String, ShardRecord> known = shardRecords();
        List<String> added = urls.keySet().stream().filter(id -> !known.containsKey(id)).toList();
        List<String> withoutUrl = urls.keySet().stream()
                .filter(id -> known.containsKey(id) && known.get(id).url() == null).toList();
        if (added.isEmpty() && withoutUrl.isEmpty()) {
            return;
        }
        transaction("register shards", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_shard (shard_id, status, registered_at, url, origin) values (?, ?, ?, ?, ?)")) {
                Timestamp now = Timestamp.from(Instant.now());
                for (String id : added) {
                    ps.setString(1, id);
                    ps.setString(2, "ONLINE");
                    ps.setTimestamp(3, now);
                    ps.setString(4, urls.get(id));
                    ps.setString(5, ShardRecord.CONFIG);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_shard set url = ?, origin = coalesce(origin, ?) where shard_id = ? and url is null")) {
                for (String id : withoutUrl) {
                    ps.setString(1, urls.get(id));
                    ps.setString(2, ShardRecord.CONFIG);
                    ps.setString(3, id);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            if (!added.isEmpty()) {
                log(connection, "SHARDS_REGISTERED", String.join(",", added));
            }
            return null;
        });
    }

    /**
     * Records a shard added at run time: ONLINE, with its URL (without credentials) and origin ADMIN.
     *
     * @return false if the shard id is already registered (by this or another instance; nothing written)
     */
    public boolean addShard(String shardId, String url) {
        try {
            return transaction("record shard " + shardId, connection -> {
                try (PreparedStatement ps = connection.prepareStatement(
                        "insert into as_shard (shard_id, status, registered_at, url, origin) values (?, ?, ?, ?, ?)")) {
                    ps.setString(1, shardId);
                    ps.setString(2, "ONLINE");
                    ps.setTimestamp(3, Timestamp.from(Instant.now()));
                    ps.setString(4, url);
                    ps.setString(5, ShardRecord.ADMIN);
                    ps.executeUpdate();
                }
                log(connection, "SHARD_ADDED", shardId + " " + url);
                return true;
            });
        } catch (CatalogException e) {
            if (isDuplicateKey(e.getCause())) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Sets a shard's status (ONLINE, DRAINING, RETIRED) unless it is already RETIRED, and logs the change.
     *
     * @return false if the shard is not registered or already retired (nothing written)
     */
    public boolean setShardStatus(String shardId, String status) {
        return transaction("set the status of shard " + shardId, connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_shard set status = ? where shard_id = ? and status <> ?")) {
                ps.setString(1, status);
                ps.setString(2, shardId);
                ps.setString(3, "RETIRED");
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            log(connection, "SHARD_" + status, shardId);
            return true;
        });
    }

    /** Adds one member to a consistent-hash ring; false if it is a member already (nothing written). */
    public boolean addRingMember(String unit, String shardId) {
        try {
            return transaction("add a ring member", connection -> {
                requireNotRetired(connection, List.of(shardId));
                try (PreparedStatement ps = connection.prepareStatement(
                        "insert into as_ring_member (unit_name, shard_id) values (?, ?)")) {
                    ps.setString(1, unit);
                    ps.setString(2, shardId);
                    ps.executeUpdate();
                }
                log(connection, "RING_MEMBER_ADDED", unit + ": " + shardId);
                return true;
            });
        } catch (CatalogException e) {
            if (isDuplicateKey(e.getCause())) {
                return false;
            }
            throw e;
        }
    }

    /** Removes one member from a consistent-hash ring; false if it was not a member (nothing written). */
    public boolean removeRingMember(String unit, String shardId) {
        return transaction("remove a ring member", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "delete from as_ring_member where unit_name = ? and shard_id = ?")) {
                ps.setString(1, unit);
                ps.setString(2, shardId);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            log(connection, "RING_MEMBER_REMOVED", unit + ": " + shardId);
            return true;
        });
    }

    /** What a shard still owns in the catalog; all empty when it owns nothing. */
    public record Owned(int mapVersion, List<Integer> virtualShards, long placements, List<String> ringUnits) {

        public boolean isEmpty() {
            return virtualShards.isEmpty() && placements == 0 && ringUnits.isEmpty();
        }
    }

    /**
     * Retires a shard if it owns nothing, in one transaction: its registry row is set RETIRED first (which locks
     * it against a concurrent {@link #writeMap} or {@link #addRingMember} naming it), then what it owns is read; if
     * it owns anything the transaction rolls back.
     *
     * @return what it owns (empty: it was retired, or was already)
     */
    public Owned retireIfOwnsNothing(String shardId) {
        return transaction("retire shard " + shardId, connection -> {
            int updated;
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_shard set status = ? where shard_id = ? and status <> ?")) {
                ps.setString(1, "RETIRED");
                ps.setString(2, shardId);
                ps.setString(3, "RETIRED");
                updated = ps.executeUpdate();
            }
            int version = 0;
            try (PreparedStatement ps = connection.prepareStatement("select max(version) from as_map_version");
                 ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    version = rs.getInt(1);
                }
            }
            List<Integer> virtuals = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "select virtual_shard from as_virtual_shard where version = ? and shard_id = ? order by virtual_shard")) {
                ps.setInt(1, version);
                ps.setString(2, shardId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        virtuals.add(rs.getInt(1));
                    }
                }
            }
            long placements = 0;
            try (PreparedStatement ps = connection.prepareStatement("select count(*) from as_placement p "
                    + "join as_virtual_shard v on v.virtual_shard = p.virtual_shard where v.version = ? and v.shard_id = ?")) {
                ps.setInt(1, version);
                ps.setString(2, shardId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        placements = rs.getLong(1);
                    }
                }
            }
            List<String> rings = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(
                    "select unit_name from as_ring_member where shard_id = ? order by unit_name")) {
                ps.setString(1, shardId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rings.add(rs.getString(1));
                    }
                }
            }
            // a member still joining holds the keys of the batches switched so far, and is not in as_ring_member yet
            try (PreparedStatement ps = connection.prepareStatement("select checkpoint from as_move "
                    + "where kind = ? and target_shard = ? and state <> ? and state <> ?")) {
                ps.setString(1, RingChange.JOIN);
                ps.setString(2, shardId);
                ps.setString(3, "DONE");
                ps.setString(4, "ABORTED");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rings.add(RingChange.decode(RingChange.JOIN, rs.getString(1)).unitName() + " (joining)");
                    }
                }
            }
            Owned owned = new Owned(version, List.copyOf(virtuals), placements, List.copyOf(rings));
            if (!owned.isEmpty()) {
                connection.rollback();
            } else if (updated > 0) {
                log(connection, "SHARD_RETIRED", shardId);
            }
            return owned;
        });
    }

    /** Locks the registry rows of {@code shardIds} until the transaction ends; fails if one is retired. */
    public void requireNotRetired(Connection connection, List<String> shardIds) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select status from as_shard where shard_id = ? for update")) {
            for (String id : shardIds) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && "RETIRED".equals(rs.getString(1))) {
                        throw new CatalogException("Shard '" + id + "' is RETIRED in the catalog at " + url
                                + ": it cannot own virtual shards or a place in a ring again. Nothing was written. "
                                + "Fix: add a new shard (under a new id) and move to it");
                    }
                }
            }
        }
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

    private <T> T run(String what, SqlWork<T> work) {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            return work.run(connection);
        } catch (SQLException e) {
            evictIfBroken(connection, e);
            throw failure(what, e);
        } finally {
            closeQuietly(connection);
        }
    }

    private <T> T transaction(String what, SqlWork<T> work) {
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackFailed) {
                    e.addSuppressed(rollbackFailed);
                }
                throw e;
            } finally {
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // a broken connection: evicted below
                }
            }
        } catch (SQLException e) {
            evictIfBroken(connection, e);
            throw failure(what, e);
        } finally {
            closeQuietly(connection);
        }
    }

    /**
     * Takes a connection that failed with a connection error out of the pool. HikariCP evicts on SQLSTATE 08 only,
     * and some drivers (H2's client) report a dead socket otherwise; a broken connection handed out again within
     * HikariCP's aliveness bypass window would make the catalog look down after it is back.
     */
    private void evictIfBroken(Connection connection, SQLException e) {
        if (connection != null && isConnectionFailure(e)) {
            dataSource.evictConnection(connection);
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException | RuntimeException ignored) {
                // already evicted or broken: HikariCP closes an evicted connection at once, and closing its proxy
                // afterwards fails (a NullPointerException resetting its state), which must not hide the real error
            }
        }
    }

    /** A {@link CatalogUnavailableException} if the catalog could not be reached, else a {@link CatalogException}. */
    private CatalogException failure(String what, SQLException e) {
        if (isConnectionFailure(e)) {
            return new CatalogUnavailableException("Cannot " + what + ": the shard catalog at " + url
                    + " (setting atomicshards.catalog.url) is unreachable: " + message(e) + ". Nothing was written; "
                    + "keys already known keep routing from memory. Retry once the catalog is back", e);
        }
        return new CatalogException("Cannot " + what + " in the shard catalog at " + url + ": " + message(e), e);
    }

    /** Whether {@code e} says the catalog could not be reached (rather than that a statement failed). */
    static boolean isConnectionFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof java.io.IOException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                // 08: connection exception (SQL standard); H2's client reports a broken connection as 90067, a
                // connection whose session died with it as 90121, and a socket closed mid-reply as an IO exception,
                // 90028 (e.g. "IO Exception: java.io.EOFException", without the IOException as its cause)
                if ((state != null && state.startsWith("08")) || sql.getErrorCode() == 90067
                        || sql.getErrorCode() == 90121 || sql.getErrorCode() == 90028) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code e} is a unique or primary key violation (SQLSTATE class 23). */
    public static boolean isDuplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("23")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A driver's message with any credentials it may echo removed, followed by the root cause's (a pool timeout
     * says only that no connection came; its cause says why).
     */
    private static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = String.valueOf(e.getMessage());
        if (root != e && root.getMessage() != null && !text.contains(root.getMessage())) {
            text += " (" + root.getMessage() + ")";
        }
        return Redaction.url(text);
    }

    @Override
    public void close() {
        dataSource.close();
    }

    /** One stored version of the virtual→physical map. */
    public record StoredMap(int version, String[] owners) {
    }
}
