package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;

/**
 * A batch of one unit of a placement policy ({@code lookup}, {@code round_robin}) moved alone: the unit's own rows in
 * {@code as_unit_fence} are the fence (the virtual shards it is placed on stay where they are, with their other
 * units), and the switch changes its recorded placement to a virtual shard of the target.
 *
 * <p>On the source: MOVING (its writers log it), FROZEN (they wait), SWITCHED from the switch (work routed there is
 * stale; fan-outs re-run, as its rows may be live on both shards), then GONE in the transaction that deletes its
 * rows; the GONE row stays, so work routed there with an old placement is sent back to the catalog. MOVING is set
 * and then the virtual shard's ownership row is locked once exclusively: that waits for every writer that entered
 * before the unit's row existed. On the target: STAGED while copied (writers wait; fan-outs ignore it, the source is
 * authoritative), INCOMING from just before the switch (fan-outs run again until it is promoted), deleted when its
 * rows go live.
 */
public final class UnitBatch implements BatchScope {

    private final MoveJournal.UnitMove unit;
    private final ShardId target;

    UnitBatch(MoveJournal.UnitMove unit, ShardId target) {
        this.unit = unit;
        this.target = target;
    }

    @Override
    public ShardId source() {
        return unit.source();
    }

    @Override
    public ShardId target() {
        return target;
    }

    @Override
    public List<Integer> logBuckets() {
        return List.of(unit.sourceBucket());
    }

    @Override
    public List<Integer> targetVirtualShards() {
        return List.of(unit.targetBucket());
    }

    @Override
    public String describe() {
        return unit.toString();
    }

    @Override
    public void claimTarget(Connection target, Connection source, MoveOptionsView options) throws SQLException {
        String state = OwnershipFence.states(target, Set.of(unit.targetBucket())).get(unit.targetBucket());
        if (!OwnershipFence.OWNED.equals(state)) {
            throw new IllegalStateException("the target does not own virtual shard " + unit.targetBucket() + " (its "
                    + "ownership row is " + state + "), where " + unit + " was to be placed");
        }
        setUnitRow(target, unit.unitName(), unit.keyText(), unit.targetBucket(), OwnershipFence.STAGED);
    }

    @Override
    public void startSource(Connection source, MoveOptionsView options) throws SQLException {
        Map<Integer, String> states = OwnershipFence.states(source, Set.of(unit.sourceBucket()));
        if (!OwnershipFence.OWNED.equals(states.get(unit.sourceBucket()))) {
            throw new IllegalStateException("shard source does not own virtual shard " + unit.sourceBucket()
                    + " where " + unit + " is placed (its ownership row is " + states.get(unit.sourceBucket())
                    + "); the catalog and the shard disagree");
        }
        LocalTransaction.run(source, options.guard(), () -> setUnitRow(source, unit.unitName(), unit.keyText(),
                unit.sourceBucket(), OwnershipFence.MOVING));
        // the writers that entered before the unit's row existed did not read it: wait for them
        OwnershipFence.awaitWritersOf(source, unit.sourceBucket(), options.freezeTimeout(), options.attempts());
    }

    @Override
    public boolean moves(RowCopier copier, Object key) {
        return copier.tables().unit().unitName().equals(unit.unitName()) && key.equals(copier.toKey(unit.keyText()));
    }

    @Override
    public Set<Object> keysOf(RowCopier copier, Connection source) {
        return copier.tables().unit().unitName().equals(unit.unitName()) ? Set.of(copier.toKey(unit.keyText()))
                : Set.of();
    }

    @Override
    public void freeze(Connection source, int timeoutSeconds) throws SQLException {
        OwnershipFence.closeGates(source, List.of(unit.sourceBucket()), timeoutSeconds);
        try (PreparedStatement ps = source.prepareStatement("update as_unit_fence set state = ? "
                + "where unit_name = ? and unit_key = ? and bucket = ? and state = ?")) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setString(1, OwnershipFence.FROZEN);
            ps.setString(2, unit.unitName());
            ps.setString(3, unit.keyText());
            ps.setInt(4, unit.sourceBucket());
            ps.setString(5, OwnershipFence.MOVING);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException(unit + " is not MOVING on the source");
            }
        }
    }

    @Override
    public void unfreeze(Connection source) throws SQLException {
        // only a FROZEN row: a MOVING one is share-locked by writers, and InnoDB would wait for them to update it
        FenceTarget row = new FenceTarget(unit.sourceBucket(), unit.unitName(), unit.keyText(), true);
        if (OwnershipFence.FROZEN.equals(OwnershipFence.unitState(source, row))) {
            setUnitRow(source, unit.unitName(), unit.keyText(), unit.sourceBucket(), OwnershipFence.MOVING);
        }
    }

    @Override
    public void beforeSwitch(Connection target, int timeoutSeconds) throws SQLException {
        setUnitRow(target, unit.unitName(), unit.keyText(), unit.targetBucket(), OwnershipFence.INCOMING);
        OwnershipFence.bumpEpoch(target); // fan-outs cache claims per epoch: they must see the arrival
    }

    @Override
    public int switchOver(MoveJournal journal, String moveId, int batch, ShardId target, String owner,
                          Instant lease) {
        return journal.switchPlacement(moveId, unit, target, owner, lease);
    }

    @Override
    public void markSwitched(Connection source, int mapVersion) throws SQLException {
        // the virtual shard's row first, as writers lock it (before the unit's row): the reverse order deadlocks
        raiseMapVersion(source, unit.sourceBucket(), mapVersion);
        try (PreparedStatement ps = source.prepareStatement("update as_unit_fence set state = ? "
                + "where unit_name = ? and unit_key = ? and bucket = ? and state in (?, ?)")) {
            ps.setString(1, OwnershipFence.SWITCHED);
            ps.setString(2, unit.unitName());
            ps.setString(3, unit.keyText());
            ps.setInt(4, unit.sourceBucket());
            ps.setString(5, OwnershipFence.FROZEN);
            ps.setString(6, OwnershipFence.SWITCHED);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException(unit + " is not FROZEN on the source after its switch");
            }
        }
    }

    @Override
    public void releaseClaims(Connection source, int mapVersion) throws SQLException {
        // the virtual shard's row first, as writers lock it (before the unit's row): the reverse order deadlocks
        raiseMapVersion(source, unit.sourceBucket(), mapVersion);
        setUnitRow(source, unit.unitName(), unit.keyText(), unit.sourceBucket(), OwnershipFence.GONE);
        try (PreparedStatement ps = source.prepareStatement(
                "delete from as_moved_change where bucket = ? and unit_name = ? and unit_key = ?")) {
            ps.setInt(1, unit.sourceBucket());
            ps.setString(2, unit.unitName());
            ps.setString(3, unit.keyText());
            ps.executeUpdate();
        }
    }

    @Override
    public boolean promoted(Connection target) throws SQLException {
        return OwnershipFence.unitState(target, new FenceTarget(unit.targetBucket(), unit.unitName(), unit.keyText(),
                true)) == null;
    }

    @Override
    public void promoteClaims(Connection target, int mapVersion) throws SQLException {
        raiseMapVersion(target, unit.targetBucket(), mapVersion); // before the unit's row, as in releaseClaims
        try (PreparedStatement ps = target.prepareStatement(
                "delete from as_unit_fence where unit_name = ? and unit_key = ? and bucket = ?")) {
            ps.setString(1, unit.unitName());
            ps.setString(2, unit.keyText());
            ps.setInt(3, unit.targetBucket());
            ps.executeUpdate();
        }
    }

    /** Sets (inserting if missing) the fence row of one unit on one virtual shard, in the caller's transaction. */
    static void setUnitRow(Connection connection, String unitName, String keyText, int bucket, String state)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("update as_unit_fence set state = ? "
                + "where unit_name = ? and unit_key = ? and bucket = ?")) {
            update.setString(1, state);
            update.setString(2, unitName);
            update.setString(3, keyText);
            update.setInt(4, bucket);
            if (update.executeUpdate() == 1) {
                return;
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "insert into as_unit_fence (unit_name, unit_key, bucket, state) values (?, ?, ?, ?)")) {
            insert.setString(1, unitName);
            insert.setString(2, keyText);
            insert.setInt(3, bucket);
            insert.setString(4, state);
            insert.executeUpdate();
        }
    }

    /** Records on the shard's claim that it changed under {@code mapVersion}: readers on an older map refresh. */
    private static void raiseMapVersion(Connection connection, int bucket, int mapVersion) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "update as_ownership set map_version = ? where bucket = ? and map_version < ?")) {
            ps.setInt(1, mapVersion);
            ps.setInt(2, bucket);
            ps.setInt(3, mapVersion);
            ps.executeUpdate();
        }
    }
}
