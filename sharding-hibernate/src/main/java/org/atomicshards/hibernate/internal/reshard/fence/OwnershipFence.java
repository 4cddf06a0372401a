package org.atomicshards.hibernate.internal.reshard.fence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.logging.Logger;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.reshard.Ranges;
import org.atomicshards.hibernate.internal.reshard.lease.ConnectionLeases;
import org.atomicshards.hibernate.internal.reshard.move.LocalTransaction;
import org.atomicshards.hibernate.internal.reshard.move.Mover;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;
import org.hibernate.SharedSessionContract;

/**
 * The ownership fence on each shard database: {@code as_ownership} holds one row per virtual shard the shard owns
 * ({@code OWNED}, {@code MOVING} while its units are copied away, {@code FROZEN} while it is switched,
 * {@code SWITCHED} from the switch until its rows are deleted) or is about to own ({@code INCOMING}); a missing row
 * means the shard does not own it. {@code as_fence} records which catalog the
 * rows come from and an epoch that grows with every change of ownership; {@code as_moved_change} logs the units
 * written while their virtual shard is {@code MOVING}.
 *
 * <p>A unit of work {@link #enter enters} the fence inside its own local transaction, before any user code: it reads
 * its virtual shard's row under a shared lock held until commit, so the mover's freeze (an exclusive update) waits
 * for it and every later writer sees the freeze. A unit of work on a connection that holds a write lease enters no
 * fence ({@link ConnectionLeases}): leases are taken back before an operation's first change. Thread-safe.
 */
public final class OwnershipFence {

    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");
    /** How often a fence initialisation that lost a race with another instance's is run again. */
    private static final int INITIALISE_ATTEMPTS = 5;
    /** How often the fence's tables are created (if not existing) before a failure is taken as one. */
    private static final int CREATE_ATTEMPTS = 12;

    /** The SQL function that reads the shard's epoch inside another statement (registered at boot). */
    public static final String EPOCH_FUNCTION = "atomicshards_fence_epoch";
    /** What {@link #EPOCH_FUNCTION} renders: the epoch as a scalar subquery, read in the enclosing statement's snapshot. */
    public static final String EPOCH_SUBQUERY = "(select epoch from as_fence where id = 1)";

    public static final String OWNED = "OWNED";
    public static final String MOVING = "MOVING";
    public static final String FROZEN = "FROZEN";
    public static final String INCOMING = "INCOMING";
    /**
     * Given away in the catalog, its rows still here until the release deletes them: work routed here is stale (the
     * target may already be writing), while fan-outs still count the rows here as claimed.
     */
    public static final String SWITCHED = "SWITCHED";
    /** A unit's own row on the target while it is copied there alone (rows in staging, the source authoritative). */
    public static final String STAGED = "STAGED";
    /** A unit's own row on a shard it was moved away from alone: routing there with an old placement is stale. */
    public static final String GONE = "GONE";

    /** The {@code bucket} of the change log entries of units on a consistent-hash ring (they have no virtual shard). */
    public static final int RING_LOG = -1;
    /**
     * The {@code unit_name} and {@code unit_key} of a change log entry that names no unit: a write the library could not
     * attribute to units changed the virtual shard (or the ring's moving keys), any of its units may differ. No unit
     * is named so.
     */
    public static final String ANY_UNIT = "*";

    private final ShardPools pools;
    private final CachedShardDirectory directory;
    private final Catalog catalog;
    private final Map<ShardId, ShardSql> prepared = new ConcurrentHashMap<>();
    private final Map<ShardId, Object> preparing = new ConcurrentHashMap<>();
    private final Map<ShardSql, StatementPerConnection> lockingReads = new EnumMap<>(ShardSql.class);
    private final Map<ShardSql, StatementPerConnection> writerGates = new EnumMap<>(ShardSql.class);
    private final Map<ShardSql, StatementPerConnection> ringReads = new EnumMap<>(ShardSql.class);
    private final List<String> ringUnits;
    private volatile String catalogIdentity;

    /** @param ringUnits the names of this instance's units on a consistent-hash ring (their ring rows, see prepare) */
    public OwnershipFence(ShardPools pools, CachedShardDirectory directory, Catalog catalog, List<String> ringUnits) {
        this.pools = pools;
        this.directory = directory;
        this.catalog = catalog;
        this.ringUnits = List.copyOf(ringUnits);
        for (ShardSql sql : ShardSql.values()) {
            lockingReads.put(sql, new StatementPerConnection(
                    "select state" + sql.openGate("bucket") + " from as_ownership where bucket = ?" + sql.shareLock()));
            ringReads.put(sql, new StatementPerConnection(
                    "select state, map_version, peer from as_ring_fence where unit_name = ?" + sql.shareLock()));
            if (sql.writerGate() != null) {
                writerGates.put(sql, new StatementPerConnection(sql.writerGate()));
            }
        }
    }

    /**
     * Checks, inside the unit of work's transaction on {@code connection}, that {@code shard} owns the target's bucket
     * and locks its ownership row until the transaction ends. For a {@linkplain FenceTarget#perUnit() unit that can
     * move alone}, then checks (and share-locks) the unit's own row for that bucket in {@code as_unit_fence}, if any:
     * {@code FROZEN}, {@code STAGED} and {@code INCOMING} wait, {@code SWITCHED} and {@code GONE} mean the unit moved
     * to another shard. A consistent-hash unit's key is logged here when its ring row is {@code MOVING}.
     *
     * @return whether the target is being copied (its virtual shard, or for a unit that can move alone the unit,
     *         {@code MOVING}): then every row the transaction writes there must be {@linkplain #logChange logged} (the
     *         share lock keeps it {@code MOVING} until commit)
     * @throws FenceRejection STALE if the shard does not own the bucket or the unit, WAIT if it is being switched
     */
    public boolean enter(Connection connection, ShardId shard, FenceTarget target) throws SQLException {
        ShardSql sql = prepare(shard);
        passGate(connection, sql);
        if (target.onRing()) {
            enterRing(connection, sql, shard, target);
            return false;
        }
        StatementPerConnection lockingRead = lockingReads.get(sql);
        int bucket = target.bucket();
        String state;
        try {
            PreparedStatement ps = lockingRead.on(connection);
            ps.setInt(1, bucket);
            try (ResultSet rs = ps.executeQuery()) {
                state = rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            lockingRead.failed(connection);
            throw e;
        }
        if (state == null) {
            throw new FenceRejection(FenceRejection.Reason.STALE, shard, bucket);
        }
        switch (state) {
            case OWNED -> {
            }
            case MOVING -> {
            }
            case SWITCHED -> throw new FenceRejection(FenceRejection.Reason.STALE, shard, bucket);
            default -> throw new FenceRejection(FenceRejection.Reason.WAIT, shard, bucket);
        }
        boolean moving = MOVING.equals(state);
        if (!target.perUnit()) {
            return moving;
        }
        String unitState;
        try (PreparedStatement ps = connection.prepareStatement("select state from as_unit_fence "
                + "where unit_name = ? and unit_key = ? and bucket = ?" + sql.shareLock())) {
            ps.setString(1, target.unitName());
            ps.setString(2, target.keyText());
            ps.setInt(3, bucket);
            try (ResultSet rs = ps.executeQuery()) {
                unitState = rs.next() ? rs.getString(1) : null;
            }
        }
        if (unitState == null) {
            return moving;
        }
        switch (unitState) {
            case MOVING -> {
                return true;
            }
            case SWITCHED, GONE -> throw new FenceRejection(FenceRejection.Reason.STALE, shard, target);
            default -> throw new FenceRejection(FenceRejection.Reason.WAIT, shard, target);
        }
    }

    /**
     * Enters the fence of a write the library cannot attribute to units (a bulk HQL or JPQL statement, native SQL),
     * inside its transaction on {@code connection}: share-locks every claim of {@code shard} until commit (on H2, the
     * writer gate), so no claim changes state while the transaction runs, and logs every virtual shard whose units are
     * being copied as changed whole ({@link #ANY_UNIT}), every unit moving alone by its key, and every consistent-hash
     * ring whose keys move: the move's catch-up compares all of their units again.
     *
     * @throws FenceRejection WAIT if the shard is switching a virtual shard, a unit or ring keys (frozen, or handed over
     *         and not yet released): the write could touch rows another shard now owns
     */
    public void enterBulk(Connection connection, ShardId shard) throws SQLException {
        ShardSql sql = prepare(shard);
        passGate(connection, sql);
        boolean moving = false;
        try (PreparedStatement ps = connection.prepareStatement(
                "select bucket, state" + sql.openGate("bucket") + " from as_ownership where state <> ?"
                        + sql.shareLock())) {
            ps.setString(1, INCOMING);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String state = rs.getString(2);
                    if (FROZEN.equals(state) || SWITCHED.equals(state)) {
                        throw new FenceRejection(FenceRejection.Reason.WAIT, shard, rs.getInt(1));
                    }
                    moving |= MOVING.equals(state);
                }
            }
        }
        boolean unitsMoving = false;
        try (PreparedStatement ps = connection.prepareStatement(
                "select unit_name, unit_key, bucket, state from as_unit_fence where state in (?, ?, ?)"
                        + sql.shareLock())) {
            ps.setString(1, MOVING);
            ps.setString(2, FROZEN);
            ps.setString(3, SWITCHED);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!MOVING.equals(rs.getString(4))) {
                        throw new FenceRejection(FenceRejection.Reason.WAIT, shard,
                                new FenceTarget(rs.getInt(3), rs.getString(1), rs.getString(2), true));
                    }
                    unitsMoving = true;
                }
            }
        }
        boolean ringMoving = false;
        // every ring row, OWNED ones too: a ring's source goes MOVING by an update that waits for these locks
        try (PreparedStatement ps = connection.prepareStatement(
                "select unit_name, state from as_ring_fence" + sql.shareLock())) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String state = rs.getString(2);
                    if (FROZEN.equals(state) || SWITCHED.equals(state)) {
                        throw new FenceRejection(FenceRejection.Reason.WAIT, shard,
                                new FenceTarget(RING_LOG, rs.getString(1), ANY_UNIT, false));
                    }
                    ringMoving |= MOVING.equals(state);
                }
            }
        }
        if (moving) {
            logAll(connection, "insert into as_moved_change (bucket, unit_name, unit_key) select bucket, ?, ? "
                    + "from as_ownership where state = ?");
        }
        if (unitsMoving) {
            try (PreparedStatement ps = connection.prepareStatement("insert into as_moved_change (bucket, unit_name, "
                    + "unit_key) select bucket, unit_name, unit_key from as_unit_fence where state = ?")) {
                ps.setString(1, MOVING);
                ps.executeUpdate();
            }
        }
        if (ringMoving) {
            logAll(connection, "insert into as_moved_change (bucket, unit_name, unit_key) select " + RING_LOG
                    + ", ?, ? from as_ring_fence where state = ?");
        }
    }

    /** Runs {@code insert}, which logs {@link #ANY_UNIT} for each of its rows in state {@code MOVING}. */
    private static void logAll(Connection connection, String insert) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(insert)) {
            ps.setString(1, ANY_UNIT);
            ps.setString(2, ANY_UNIT);
            ps.setString(3, MOVING);
            ps.executeUpdate();
        }
    }

    /**
     * The fence of a unit on a consistent-hash ring: the shard's ring row for the unit ({@code as_ring_fence}), read
     * and share-locked. No row: the ring never changed on this shard. A row written under a newer map version than
     * the one the key was routed under means the router's ring is old (the shard may have handed the key over): STALE.
     * Otherwise {@code OWNED} and {@code SWITCHED} let the work in (a router that new routes here only the keys the
     * shard keeps), {@code MOVING} logs the key, {@code FROZEN} and {@code INCOMING} make the keys of the batch
     * switching with the row's peer wait, and let the others in.
     */
    private void enterRing(Connection connection, ShardSql sql, ShardId shard, FenceTarget target)
            throws SQLException {
        StatementPerConnection ringRead = ringReads.get(sql);
        String state;
        int mapVersion;
        String peer;
        try {
            PreparedStatement ps = ringRead.on(connection);
            ps.setString(1, target.unitName());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                state = rs.getString(1);
                mapVersion = rs.getInt(2);
                peer = rs.getString(3);
            }
        } catch (SQLException e) {
            ringRead.failed(connection);
            throw e;
        }
        if (mapVersion > target.ringVersion()) {
            throw new FenceRejection(FenceRejection.Reason.STALE, shard, target);
        }
        boolean switching = switch (state) {
            case OWNED, SWITCHED -> false;
            case MOVING -> {
                logChange(connection, RING_LOG, target.unitName(), target.keyText());
                yield false;
            }
            case FROZEN -> target.movesWith(peer, true);
            case INCOMING -> target.movesWith(peer, false);
            default -> true;
        };
        if (switching) {
            throw new FenceRejection(FenceRejection.Reason.WAIT, shard, target);
        }
    }

    /** On H2, takes the writer gate's shared lock until the transaction ends (see {@link ShardSql#writerGate()}). */
    private void passGate(Connection connection, ShardSql sql) throws SQLException {
        StatementPerConnection gate = writerGates.get(sql);
        if (gate == null) {
            return;
        }
        try {
            gate.on(connection).executeUpdate();
        } catch (SQLException e) {
            gate.failed(connection);
            throw e;
        }
    }

    /**
     * Makes sure the fence's tables exist on {@code shard} before a read's transaction takes its snapshot: MariaDB
     * refuses to read, inside a transaction, a table created after its snapshot ("Table definition has changed").
     */
    public void ready(ShardId shard) {
        prepare(shard);
    }

    /**
     * For a read outside a unit of work, in the session's transaction: whether the shard claims the virtual shard and
     * has its rows live. Asked before the read (a promotion makes a unit's rows live and its claim {@code OWNED} in one
     * transaction) and after it (a release deletes a unit's rows and its claim in one transaction, so a claim found
     * after the rows means the rows were read before any release).
     *
     * @throws FenceRejection STALE if the shard does not own it (any more), WAIT if it is arriving there
     */
    public void confirmRead(SharedSessionContract session, ShardId shard, FenceTarget target) {
        if (target == null || !target.fenced()) {
            return;
        }
        prepare(shard);
        session.doWork(connection -> confirm(connection, shard, target));
    }

    /**
     * {@link #confirmRead} on a connection of its own, before a session is opened for the target's unit: whether
     * {@code shard} holds the unit now, so that the session does not start on a shard its instance's old map names.
     * Nothing is read when {@code leased} says the connection holds a write lease (no ownership changed there since
     * this instance's map, nor will while the lease lasts).
     *
     * @throws FenceRejection STALE if the shard does not own it (any more), WAIT if it is arriving there
     */
    void confirmClaim(ShardId shard, FenceTarget target, Predicate<Connection> leased) {
        if (target == null || !target.fenced()) {
            return;
        }
        prepare(shard);
        try (Connection connection = pools.connection(shard)) {
            if (leased.test(connection)) {
                return;
            }
            connection.setAutoCommit(true);
            confirm(connection, shard, target);
        } catch (SQLException e) {
            throw new AtomicShardsException("Cannot read the ownership fence on shard '" + shard + "': "
                    + e.getMessage(), e);
        }
    }

    /**
     * After a read on {@code connection} of what {@code shard} keeps by virtual shard ({@link FenceTarget#virtualShard}),
     * in the read's transaction: whether the shard holds the virtual shard (a release deletes its rows and its claim in
     * one transaction, so a claim found after the rows means the rows were read before any release).
     *
     * @throws FenceRejection STALE if the shard does not own it (any more, or handed it over), WAIT if it is arriving
     */
    public void confirmHeld(Connection connection, ShardId shard, FenceTarget target) throws SQLException {
        prepare(shard);
        confirm(connection, shard, target);
    }

    private void confirm(Connection connection, ShardId shard, FenceTarget target) throws SQLException {
        if (target.onRing()) {
            confirmRing(connection, shard, target);
            return;
        }
        String state;
        try (PreparedStatement ps = connection.prepareStatement("select state from as_ownership where bucket = ?")) {
            ps.setInt(1, target.bucket());
            try (ResultSet rs = ps.executeQuery()) {
                state = rs.next() ? rs.getString(1) : null;
            }
        }
        if (state == null || SWITCHED.equals(state)) {
            throw new FenceRejection(FenceRejection.Reason.STALE, shard, target.bucket());
        }
        if (INCOMING.equals(state)) {
            throw new FenceRejection(FenceRejection.Reason.WAIT, shard, target.bucket());
        }
        if (target.perUnit()) {
            String unitState = unitState(connection, target);
            if (GONE.equals(unitState) || SWITCHED.equals(unitState)) {
                throw new FenceRejection(FenceRejection.Reason.STALE, shard, target);
            }
            if (STAGED.equals(unitState) || INCOMING.equals(unitState)) {
                throw new FenceRejection(FenceRejection.Reason.WAIT, shard, target);
            }
        }
    }

    /**
     * {@link #confirm} of a ring unit: STALE if the shard's ring row for the unit was written under a newer map than
     * the read was routed with, WAIT while the key may be arriving there ({@code INCOMING}: not yet in its live
     * tables).
     */
    private void confirmRing(Connection connection, ShardId shard, FenceTarget target) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select state, map_version, peer from as_ring_fence where unit_name = ?")) {
            ps.setString(1, target.unitName());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                if (rs.getInt(2) > target.ringVersion()) {
                    throw new FenceRejection(FenceRejection.Reason.STALE, shard, target);
                }
                if (INCOMING.equals(rs.getString(1)) && target.movesWith(rs.getString(3), false)) {
                    throw new FenceRejection(FenceRejection.Reason.WAIT, shard, target);
                }
            }
        }
    }

    /** The state of the unit's own fence row on the connection's shard, or null when it has none. */
    public static String unitState(Connection connection, FenceTarget target) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select state from as_unit_fence where unit_name = ? and unit_key = ? and bucket = ?")) {
            ps.setString(1, target.unitName());
            ps.setString(2, target.keyText());
            ps.setInt(3, target.bucket());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Logs the whole unit as changed: the catch-up copies all its rows again. */
    static void logChange(Connection connection, int bucket, String unitName, String keyText) throws SQLException {
        logChange(connection, bucket, unitName, keyText, null);
    }

    /**
     * Logs a change of the unit: of {@code row} (and the rows hanging off it), which is all the catch-up copies again,
     * or with {@code row} null of the whole unit.
     */
    static void logChange(Connection connection, int bucket, String unitName, String keyText, ChangedRow row)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("insert into as_moved_change (bucket, unit_name, "
                + "unit_key, table_name, row_id) values (?, ?, ?, ?, ?)")) {
            ps.setInt(1, bucket);
            ps.setString(2, unitName);
            ps.setString(3, keyText);
            ps.setString(4, row == null ? null : row.table());
            ps.setString(5, row == null ? null : row.id());
            ps.executeUpdate();
        }
    }

    /** The buckets {@code shard} claims and its ownership epoch, read on {@code connection} in one statement each. */
    public Claims claims(Connection connection, ShardId shard) throws SQLException {
        prepare(shard);
        long epoch;
        int mapVersion = 0;
        try (PreparedStatement ps = connection.prepareStatement(
                "select epoch, changed_version from as_fence where id = 1");
             ResultSet rs = ps.executeQuery()) {
            epoch = rs.next() ? rs.getLong(1) : -1;
            if (epoch >= 0) {
                mapVersion = rs.getInt(2);
            }
        }
        java.util.BitSet owned = new java.util.BitSet();
        try (PreparedStatement ps = connection.prepareStatement(
                "select bucket, map_version from as_ownership where state <> ?")) {
            ps.setString(1, INCOMING);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    owned.set(rs.getInt(1));
                    mapVersion = Math.max(mapVersion, rs.getInt(2));
                }
            }
        }
        boolean switching;
        try (PreparedStatement ps = connection.prepareStatement(
                "select count(*) from as_unit_fence where state in (?, ?)")) {
            ps.setString(1, INCOMING);
            ps.setString(2, SWITCHED);
            try (ResultSet rs = ps.executeQuery()) {
                switching = rs.next() && rs.getLong(1) > 0;
            }
        }
        // a ring's keys are on both shards from the source's freeze to its release (live on the target from its
        // promotion): fan-outs run again meanwhile
        try (PreparedStatement ps = connection.prepareStatement("select state, map_version from as_ring_fence");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                switching |= !OWNED.equals(rs.getString(1)) && !MOVING.equals(rs.getString(1));
                mapVersion = Math.max(mapVersion, rs.getInt(2));
            }
        }
        return new Claims(epoch, owned, switching, mapVersion);
    }

    /** Locks the fence's epoch row until the caller's transaction ends: changes of ownership on the shard take turns. */
    public static void lockEpoch(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("select epoch from as_fence where id = 1 for update")) {
            ps.executeQuery().close();
        }
    }

    /** The epoch of {@code shard}'s fence, which grows with every change of ownership. */
    public long epoch(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("select epoch from as_fence where id = 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : -1;
        }
    }

    /**
     * What one shard claimed at one moment; {@code unitsSwitching} when a unit moved alone is switching to it (its rows
     * not yet in the live tables, maybe already gone from the source's) or away from it (its rows maybe already live on
     * the target too), or a consistent-hash ring's keys are (from the source's freeze to its release, and while they
     * arrive on the target); {@code mapVersion} the newest map version its claims were written under or units left or
     * reached it under (a switch away from it raises it, so a reader on an older map refreshes).
     */
    public record Claims(long epoch, java.util.BitSet buckets, boolean unitsSwitching, int mapVersion) {
    }

    /**
     * Creates the fence's tables on {@code shard} if missing and, the first time (or when they were initialised from
     * another catalog), fills {@code as_ownership} from the catalog's latest map. Idempotent and safe when instances
     * do it at the same time: the {@code as_fence} row decides, and once present it is never re-initialised from a
     * map (a move may have changed ownership since).
     *
     * @return the shard's SQL dialect
     */
    public ShardSql prepare(ShardId shard) {
        ShardSql known = prepared.get(shard);
        if (known != null) {
            return known;
        }
        // one lock per shard: a shard that cannot be reached must not hold up the preparation of the others
        synchronized (preparing.computeIfAbsent(shard, id -> new Object())) {
            known = prepared.get(shard);
            if (known != null) {
                return known;
            }
            String gap = null;
            ShardSql sql;
            Connection used;
            try (Connection connection = pools.connection(shard)) {
                used = connection;
                sql = ShardSql.of(connection);
                connection.setAutoCommit(true);
                gap = sql.fenceGap(connection);
                if (gap != null) {
                    createFenceTables(connection, sql);
                }
                initialise(connection, shard);
                initialiseLeaseState(connection);
                initialiseRingRows(connection);
            } catch (SQLException e) {
                throw new AtomicShardsException("Cannot prepare the ownership fence on shard '" + shard + "': "
                        + e.getMessage() + (gap == null ? "" : " (this user found the fence's " + gap + " missing or "
                        + "unreadable)") + ". Its tables (as_*) are created by the first instance that connects, "
                        + "which needs the right to create tables there; once they exist, an instance needs only to "
                        + "read and write their rows. Fix: start one instance as a user that may create tables, or "
                        + "grant this user the rights it lacks", e);
            }
            if (sql.keepsSessionQueries()) {
                pools.discard(shard, used); // its session keeps the reads above (ShardSql.keepsSessionQueries)
            }
            prepared.put(shard, sql);
            return sql;
        }
    }

    /**
     * Creates the fence's tables and index where missing; needs the right to create tables on the shard. Instances
     * creating them at the same moment can make one fail although every statement says {@code if not exists} (H2 2.4
     * answers a general error, "object already exists", for the index another session created between its check and
     * its own creation; PostgreSQL a duplicate key in {@code pg_type} for a table another session is creating); it then
     * runs them again, when whatever the other created exists: each race costs one attempt, and there are no more races
     * than statements.
     */
    static void createFenceTables(Connection connection, ShardSql sql) throws SQLException {
        SQLException first = null;
        for (int attempt = 1; ; attempt++) {
            try {
                createFenceTablesOnce(connection, sql);
                return;
            } catch (SQLException e) {
                if (attempt == CREATE_ATTEMPTS) {
                    if (first != null) {
                        e.addSuppressed(first); // the last and the first failure, not a chain of every attempt
                    }
                    throw e;
                }
                if (first == null) {
                    first = e;
                }
            }
        }
    }

    private static void createFenceTablesOnce(Connection connection, ShardSql sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql.createOwnership());
            statement.execute(sql.createFence());
            statement.execute(sql.addFenceChangedVersion());
            statement.execute(sql.createChangeLog());
            for (String column : sql.addChangeLogRowColumns()) {
                statement.execute(column);
            }
            statement.execute(sql.createUnitFence());
            statement.execute(sql.createRingFence());
            statement.execute(sql.indexChangeLog());
            statement.execute(sql.createLeaseState());
            statement.execute(sql.createLeases());
            statement.execute(sql.createArms());
            statement.execute(sql.createRunTokens());
            if (sql.createWriterGate() != null) {
                statement.execute(sql.createWriterGate());
            }
        }
    }

    private void initialise(Connection connection, ShardId shard) throws SQLException {
        String identity = catalogIdentity();
        for (int attempt = 0; ; attempt++) {
            connection.setAutoCommit(false);
            try {
                String recorded = null;
                try (PreparedStatement ps = connection.prepareStatement(
                        "select catalog_id from as_fence where id = 1 for update");
                     ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        recorded = rs.getString(1);
                    }
                }
                if (identity.equals(recorded)) {
                    connection.commit();
                    return;
                }
                directory.refresh();
                int version = directory.version();
                if (recorded == null) {
                    try (PreparedStatement ps = connection.prepareStatement(
                            "insert into as_fence (id, catalog_id, epoch) values (1, ?, 0)")) {
                        ps.setString(1, identity);
                        ps.executeUpdate();
                    }
                } else {
                    LOG.warning("Shard '" + shard + "' has an ownership fence from another catalog (" + recorded
                            + "); it is re-initialised from the map of this catalog (" + identity + ")");
                    try (Statement statement = connection.createStatement()) {
                        statement.executeUpdate("delete from as_ownership");
                        statement.executeUpdate("delete from as_moved_change");
                        statement.executeUpdate("delete from as_unit_fence");
                        statement.executeUpdate("delete from as_ring_fence");
                        // the other catalog's map versions mean nothing here: leases start again from this one's
                        statement.executeUpdate("delete from as_lease_state");
                        statement.executeUpdate("delete from as_fence_arm");
                        statement.executeUpdate("delete from as_fence_lease");
                        statement.executeUpdate("delete from as_move_run");
                    }
                    try (PreparedStatement ps = connection.prepareStatement(
                            "update as_fence set catalog_id = ?, epoch = epoch + 1, changed_version = 0 where id = 1")) {
                        ps.setString(1, identity);
                        ps.executeUpdate();
                    }
                }
                insert(connection, directory.virtualShardsOf(shard), OWNED, version);
                connection.commit();
                return;
            } catch (SQLException e) {
                connection.rollback();
                if (attempt < INITIALISE_ATTEMPTS && (Catalog.isDuplicateKey(e) || isDeadlock(e))) {
                    // another instance initialised it at the same moment: read what it wrote. On MariaDB both read
                    // the missing row "for update", each holding a gap lock the other's insert waits for, and the
                    // server rolls one back as a deadlock
                    continue;
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    /** A transaction the database rolled back to break a deadlock (MariaDB, MySQL: 40001; PostgreSQL: 40P01). */
    private static boolean isDeadlock(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && ("40001".equals(sql.getSQLState())
                    || "40P01".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Creates the shard's lease state row on first use, with the catalog's latest map version as its lease version: an
     * instance leases here only once it has every ownership change made before leases existed.
     */
    private void initialiseLeaseState(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("select count(*) from as_lease_state where id = 1");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            if (rs.getLong(1) > 0) {
                return;
            }
        }
        directory.refresh();
        try (PreparedStatement ps = connection.prepareStatement(
                "insert into as_lease_state (id, lease_version, armed) values (1, ?, 0)")) {
            ps.setLong(1, directory.version());
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!Catalog.isDuplicateKey(e)) {
                throw e;
            }
        }
    }

    /**
     * Creates the ring row ({@code OWNED}) of each of this instance's consistent-hash units that has none on the shard,
     * before any unit of work of this instance runs there. A writer share-locks its unit's ring row, so that a ring
     * change's batch from this shard, which sets the row {@code MOVING}, waits for it. A writer that found no row locked
     * nothing, and one still running as the batch began was neither waited for nor logged: its write stayed behind on
     * the source (a joining member on PostgreSQL, about one run in twenty of {@code RingMoveContract} under load).
     */
    private void initialiseRingRows(Connection connection) throws SQLException {
        for (String unit : ringUnits) {
            ensureRingRow(connection, unit);
        }
    }

    /**
     * Inserts {@code unit}'s ring row {@code OWNED} (map version 0: its keys were never moved) if the shard has none.
     * Outside a transaction, a row another instance inserted at the same moment is taken as it is; inside one, that
     * duplicate is thrown (on PostgreSQL it has ended the transaction).
     */
    public static void ensureRingRow(Connection connection, String unit) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select count(*) from as_ring_fence where unit_name = ?")) {
            ps.setString(1, unit);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    return;
                }
            }
        }
        try (PreparedStatement ps = connection.prepareStatement(
                "insert into as_ring_fence (unit_name, state, map_version) values (?, ?, 0)")) {
            ps.setString(1, unit);
            ps.setString(2, OWNED);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!connection.getAutoCommit() || !Catalog.isDuplicateKey(e)) {
                throw e;
            }
        }
    }

    /** The SQL dialect of {@code shard} once its fence tables are ready, else null (nothing is done to find out). */
    public ShardSql preparedSql(ShardId shard) {
        return prepared.get(shard);
    }

    private String catalogIdentity() {
        String identity = catalogIdentity;
        if (identity == null) {
            identity = catalog.identity();
            catalogIdentity = identity;
        }
        return identity;
    }

    public static void insert(Connection connection, Collection<Integer> buckets, String state, int mapVersion)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "insert into as_ownership (bucket, state, map_version) values (?, ?, ?)")) {
            for (int bucket : buckets) {
                ps.setInt(1, bucket);
                ps.setString(2, state);
                ps.setInt(3, mapVersion);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The state of each of {@code buckets} on the connection's shard; absent buckets are not in the map. */
    public static Map<Integer, String> states(Connection connection, Set<Integer> buckets) throws SQLException {
        Map<Integer, String> states = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("select bucket, state from as_ownership");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (buckets.contains(rs.getInt(1))) {
                    states.put(rs.getInt(1), rs.getString(2));
                }
            }
        }
        return states;
    }

    /**
     * Sets the state of {@code buckets} to {@code to} where it is one of {@code from}; returns the rows changed. Only
     * the rows read in one of those states are updated: InnoDB locks a row it finds by its key before it checks the
     * rest of the condition, so updating a row in another state would wait for the writers holding it.
     */
    public static int transition(Connection connection, Collection<Integer> buckets, List<String> from, String to)
            throws SQLException {
        return transition(connection, buckets, from, to, 0);
    }

    /** {@link #transition(Connection, Collection, List, String)}, each update waiting at most {@code timeoutSeconds}. */
    private static int transition(Connection connection, Collection<Integer> buckets, List<String> from, String to,
                                  int timeoutSeconds) throws SQLException {
        Map<Integer, String> states = states(connection, new HashSet<>(buckets));
        int changed = 0;
        try (PreparedStatement ps = connection.prepareStatement(
                "update as_ownership set state = ? where bucket = ? and state in (?, ?, ?)")) {
            ps.setQueryTimeout(timeoutSeconds);
            for (int bucket : buckets) {
                String state = states.get(bucket); // null: not owned here (any more)
                if (state == null || !from.contains(state)) {
                    continue;
                }
                ps.setString(1, to);
                ps.setInt(2, bucket);
                for (int i = 0; i < 3; i++) {
                    ps.setString(3 + i, from.get(Math.min(i, from.size() - 1)));
                }
                changed += ps.executeUpdate();
            }
        }
        return changed;
    }

    /**
     * Sets {@code buckets} {@code MOVING} where they are in one of the {@code from} states, and returns once every unit
     * of work that entered them before has ended: from then on every writer logs its unit. On PostgreSQL and MariaDB
     * each update waits for the writers' shared row locks, at most {@code timeout} (rounded up to seconds, the JDBC
     * query timeout's unit) per attempt; on H2 the update does not wait and the writers are
     * {@linkplain #drainWriters(Connection, Duration, int) drained}. Autocommit; rows already changed stay changed.
     *
     * @throws SQLTimeoutException if writers held the rows (or the H2 gate) through every attempt
     */
    public static void startMoving(Connection source, Collection<Integer> buckets, List<String> from, Duration timeout,
                            int attempts, StepGuard guard) throws SQLException {
        startMoving(source, "virtual shards " + Ranges.of(buckets), seconds -> {
            if (ShardSql.of(source).closeGate() == null) {
                for (int bucket : buckets) { // one transaction each: writers of several virtual shards never wait
                    LocalTransaction.run(source, guard, () -> transition(source, List.of(bucket), from, MOVING,
                            seconds));
                }
                return;
            }
            // the gates close until the change commits
            LocalTransaction.run(source, guard, () -> {
                closeGates(source, buckets, seconds);
                transition(source, buckets, from, MOVING, seconds);
            });
        }, timeout, attempts);
    }

    /**
     * On PostgreSQL, in the caller's transaction, before it changes the ownership rows of {@code buckets}: closes their
     * gates ({@link ShardSql#closeGate()}), waiting at most {@code timeoutSeconds} (0: no limit) for the writers in
     * them; later writers queue until the transaction ends. Nothing elsewhere.
     */
    public static void closeGates(Connection connection, Collection<Integer> buckets, int timeoutSeconds)
            throws SQLException {
        String close = ShardSql.of(connection).closeGate();
        if (close == null) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(close)) {
            ps.setQueryTimeout(timeoutSeconds);
            for (int bucket : new TreeSet<>(buckets)) {
                ps.setInt(1, bucket);
                ps.executeQuery().close();
            }
        }
    }

    /** An update of fence rows that waits for the writers' shared locks at most the given seconds (0: no limit). */
    @FunctionalInterface
    public interface TimedChange {
        void run(int timeoutSeconds) throws SQLException;
    }

    /**
     * {@link #startMoving(Connection, Collection, List, Duration, int)} for any fence rows: {@code toMoving} sets
     * {@code what} MOVING.
     */
    public static void startMoving(Connection source, String what, TimedChange toMoving, Duration timeout, int attempts)
            throws SQLException {
        if (ShardSql.of(source).drainWriters() != null) {
            // drained even when no row changed: an earlier attempt may have set them MOVING and then timed out on a
            // writer that entered while they were OWNED, logs nothing, and may still be running
            toMoving.run(0);
            drainWriters(source, timeout, attempts);
            return;
        }
        int seconds = ShardTimeouts.seconds(timeout.toMillis());
        for (int attempt = 1; ; attempt++) {
            try {
                toMoving.run(seconds);
                return;
            } catch (SQLException e) {
                if (!Mover.isLockTimeout(e)) {
                    throw e;
                }
                if (attempt >= attempts) {
                    SQLTimeoutException timedOut = new SQLTimeoutException("Running units of work held " + what
                            + " for " + attempts + " x " + seconds + " s as the move "
                            + "set them MOVING; the move can be resumed");
                    timedOut.initCause(e);
                    throw timedOut;
                }
            }
        }
    }

    /**
     * After the mover committed a change of fence rows that writers must see (a virtual shard or a unit going
     * {@code MOVING} or {@code FROZEN}): on H2, waits until every writer that passed the shard's writer gate before
     * the change has ended ({@link ShardSql#drainWriters()}); those after it read the change. Elsewhere nothing to do:
     * the change's update waited for the writers' shared row locks. Waits at most {@code timeout}, and less than the
     * connection's own lock timeout, so that writers queued behind the drain never time out on it.
     *
     * @return false if a writer was still running after the wait (the change stays committed)
     */
    public static boolean drainWriters(Connection connection, Duration timeout) throws SQLException {
        String drain = ShardSql.of(connection).drainWriters();
        if (drain == null) {
            return true;
        }
        long writersTimeout;
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("select lock_timeout()")) {
            rs.next();
            writersTimeout = rs.getLong(1);
        }
        long wait = Math.max(1, Math.min(timeout.toMillis(), writersTimeout / 2));
        try (PreparedStatement set = connection.prepareStatement("set lock_timeout ?")) {
            set.setLong(1, wait);
            set.execute();
            try (Statement statement = connection.createStatement()) {
                statement.execute(drain); // a DDL statement: commits, and so releases its lock at once
                return true;
            } catch (SQLException e) {
                if (Mover.isLockTimeout(e)) {
                    return false;
                }
                throw e;
            } finally {
                set.setLong(1, writersTimeout);
                set.execute();
            }
        }
    }

    /**
     * {@link #drainWriters(Connection, Duration)} up to {@code attempts} times.
     *
     * @throws SQLTimeoutException if writers held the shard's gate through every attempt
     */
    public static void drainWriters(Connection connection, Duration timeout, int attempts) throws SQLException {
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (drainWriters(connection, timeout)) {
                return;
            }
        }
        throw new SQLTimeoutException("Running units of work held the shard's writer gate for " + attempts
                + " x " + timeout.toMillis() + " ms; the move can be resumed");
    }

    /**
     * Waits until every writer that entered the fence of virtual shard {@code bucket} on the connection's shard before
     * now has ended: on H2 by {@linkplain #drainWriters(Connection, Duration) draining the writer gate}, elsewhere by
     * locking the bucket's ownership row exclusively (writers hold it shared). Up to {@code attempts} waits of
     * {@code timeout} each; autocommit.
     *
     * @throws SQLException the last lock timeout (or {@link SQLTimeoutException}) if writers outlasted every attempt
     */
    public static void awaitWritersOf(Connection connection, int bucket, Duration timeout, int attempts) throws SQLException {
        if (ShardSql.of(connection).drainWriters() != null) {
            drainWriters(connection, timeout, attempts);
            return;
        }
        for (int attempt = 1; ; attempt++) {
            connection.setAutoCommit(false);
            try (PreparedStatement ps = connection.prepareStatement(
                    "select state from as_ownership where bucket = ? for update")) {
                closeGates(connection, List.of(bucket), ShardTimeouts.seconds(timeout.toMillis()));
                ps.setQueryTimeout(ShardTimeouts.seconds(timeout.toMillis()));
                ps.setInt(1, bucket);
                ps.executeQuery().close();
                connection.commit();
                return;
            } catch (SQLException e) {
                connection.rollback();
                if (!Mover.isLockTimeout(e) || attempt >= attempts) {
                    throw e;
                }
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    /**
     * In the transaction that makes units leave or reach the shard under map version {@code mapVersion} (a switch away,
     * a release, a promotion): raises the epoch, and the fence's {@code changed_version} to {@code mapVersion}.
     */
    public static void recordChange(Connection connection, int mapVersion) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("update as_fence set epoch = epoch + 1, "
                + "changed_version = case when changed_version < ? then ? else changed_version end where id = 1")) {
            ps.setInt(1, mapVersion);
            ps.setInt(2, mapVersion);
            ps.executeUpdate();
        }
    }

    /**
     * The newest map version under which units left or reached the shard ({@link #recordChange}), read on
     * {@code connection}: a session opened with an older map may miss them.
     */
    public static int changedVersion(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("select changed_version from as_fence where id = 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    /**
     * Whether {@code connection}'s database has the tables that reads check ownership in: a replica has them only once
     * it has replayed their creation on its primary. A missing table rolls the connection's transaction back.
     */
    public static boolean readTablesExist(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("select (select count(*) from as_fence where 1 = 0)"
                + " + (select count(*) from as_ownership where 1 = 0)"
                + " + (select count(*) from as_ring_fence where 1 = 0)"
                + " + (select count(*) from as_unit_fence where 1 = 0)");
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        } catch (SQLException missing) {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            return false;
        }
    }

    public static void bumpEpoch(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("update as_fence set epoch = epoch + 1 where id = 1");
        }
    }
}
