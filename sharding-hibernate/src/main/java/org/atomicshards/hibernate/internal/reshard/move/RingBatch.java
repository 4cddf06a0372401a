package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.directory.RingChange;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.routing.FixedUnitTopology;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * A batch of a consistent-hash ring gaining or losing a member: the keys of one shard (the source) that the ring after
 * the change gives to another (the target); a joining member is the target of every batch, a leaving one the source. The fence is each shard's ring row for the unit ({@code as_ring_fence}), one
 * per unit and shard, so it covers all the unit's keys on the shard, not only those that move.
 *
 * <p>On the source: MOVING under the map version that recorded the change (its writers log their keys; routers with an
 * older map, which do not know the change, are turned away once and refresh), FROZEN with the target as its peer
 * (writers of the keys moving to the target wait, the others go on; the fence's epoch is raised, so fan-outs re-read it
 * and run again until the release), SWITCHED under the switch's map version (routers with an older map are turned
 * away; the keys it keeps are written again by routers that new), then OWNED once the moved rows are deleted. On the
 * target: INCOMING under the same first map version, with the source as its peer, from just before the switch (the keys
 * arriving from the source wait, as their rows are not live yet), then OWNED under the switch's
 * map version in the promotion's transaction. A router that does not know a key's owners makes it wait in both. The switch itself writes a map version in the
 * catalog and records the source as switched; routers then give the moved keys to the target.
 */
public final class RingBatch implements BatchScope {

    private final RingChange ring;
    private final int batch;
    private final ShardId source;
    private final ShardId target;
    private final UnitRoutingImpl unit;
    /** The map version that recorded the change or a newer one: routers older than it do not know the change. */
    private final int mapVersion;
    /** The unit's topology with the ring's members after the change, for the owner of a key once it is done. */
    private final UnitTopology after;

    RingBatch(RingChange ring, int batch, UnitRoutingImpl unit, List<ShardId> membersAfter, int mapVersion) {
        this.ring = ring;
        this.mapVersion = mapVersion;
        this.batch = batch;
        this.source = ring.handover(batch).from();
        this.target = ring.handover(batch).to();
        this.unit = unit;
        this.after = FixedUnitTopology.copyOf(unit.placement().topology()).withRingMembers(membersAfter);
    }

    @Override
    public ShardId source() {
        return source;
    }

    @Override
    public ShardId target() {
        return target;
    }

    @Override
    public List<Integer> logBuckets() {
        return List.of(OwnershipFence.RING_LOG);
    }

    @Override
    public List<Integer> targetVirtualShards() {
        return List.of();
    }

    @Override
    public String describe() {
        return "the keys of unit " + unit.root().getSimpleName() + " that shard '" + source + "' gives to shard '"
                + target + "'";
    }

    @Override
    public boolean moves(RowCopier copier, Object key) {
        return copier.tables().unit().unitName().equals(ring.unitName())
                && target.equals(unit.placement().policy().shardOf(key, after));
    }

    @Override
    public void claimTarget(Connection target, Connection source, MoveOptionsView options) throws SQLException {
        OwnershipFence.ensureRingRow(target, ring.unitName());
        // An OWNED row is left as it is: updating it would wait for every running writer of the unit's keys on the
        // target, however long, and on MariaDB queue the new ones behind it.
        if (OwnershipFence.INCOMING.equals(state(target))) {
            // a copy started again after a switch that did not happen: nothing routes the batch's keys here yet
            int seconds = ShardTimeouts.seconds(options.freezeTimeout().toMillis());
            try {
                setState(target, OwnershipFence.OWNED, List.of(OwnershipFence.INCOMING), seconds, -1, null);
            } catch (SQLException e) {
                if (!Mover.isLockTimeout(e)) {
                    throw e;
                }
                SQLTimeoutException timedOut = new SQLTimeoutException("Running units of work on shard '" + target
                        + "' held the ring row of unit " + ring.unitName() + " for " + seconds + " s as the move "
                        + "took it back from INCOMING; the move can be resumed");
                timedOut.initCause(e);
                throw timedOut;
            }
        }
    }

    @Override
    public void startSource(Connection source, MoveOptionsView options) throws SQLException {
        OwnershipFence.ensureRingRow(source, ring.unitName());
        OwnershipFence.startMoving(source, "the ring row of unit " + ring.unitName(),
                seconds -> LocalTransaction.run(source, options.guard(), () -> setState(source, OwnershipFence.MOVING,
                        List.of(OwnershipFence.OWNED, OwnershipFence.FROZEN), seconds, mapVersion, null)),
                options.freezeTimeout(), options.attempts());
        String state = state(source);
        if (!OwnershipFence.MOVING.equals(state)) {
            throw new IllegalStateException("the ring row of unit " + ring.unitName() + " on shard '" + this.source
                    + "' is " + state + ", not MOVING; another operation is changing the ring");
        }
    }

    @Override
    public Set<Object> keysOf(RowCopier copier, Connection source) throws SQLException {
        Set<Object> keys = new HashSet<>();
        if (!copier.tables().unit().unitName().equals(ring.unitName())) {
            return keys;
        }
        for (Object key : copier.scanKeys(source)) {
            if (moves(copier, key)) {
                keys.add(key);
            }
        }
        return keys;
    }

    @Override
    public void freeze(Connection source, int timeoutSeconds) throws SQLException {
        if (setState(source, OwnershipFence.FROZEN, List.of(OwnershipFence.MOVING), timeoutSeconds, -1,
                target.name()) != 1) {
            throw new IllegalStateException("the ring row of unit " + ring.unitName() + " is not MOVING on the source");
        }
        OwnershipFence.bumpEpoch(source); // fan-outs holding its claims from before must read them again
    }

    @Override
    public void unfreeze(Connection source) throws SQLException {
        setState(source, OwnershipFence.MOVING, List.of(OwnershipFence.FROZEN), 0, -1, null);
    }

    @Override
    public void beforeSwitch(Connection target, int timeoutSeconds) throws SQLException {
        // waits for the target's running writers of the unit (its own keys), at most the timeout
        setState(target, OwnershipFence.INCOMING, List.of(OwnershipFence.OWNED, OwnershipFence.INCOMING),
                timeoutSeconds, mapVersion, source.name());
        OwnershipFence.bumpEpoch(target);
    }

    @Override
    public int switchOver(MoveJournal journal, String moveId, int batch, ShardId target, String owner,
                          Instant lease) {
        return journal.switchRing(moveId, this.batch, ring, owner, lease);
    }

    @Override
    public void markSwitched(Connection source, int mapVersion) throws SQLException {
        if (setState(source, OwnershipFence.SWITCHED, List.of(OwnershipFence.FROZEN, OwnershipFence.SWITCHED),
                0, mapVersion, null) != 1) {
            throw new IllegalStateException("the ring row of unit " + ring.unitName() + " is not FROZEN on the "
                    + "source after its switch");
        }
    }

    @Override
    public void releaseClaims(Connection source, int mapVersion) throws SQLException {
        setState(source, OwnershipFence.OWNED, List.of(OwnershipFence.SWITCHED), 0, mapVersion, null);
        try (PreparedStatement ps = source.prepareStatement(
                "delete from as_moved_change where bucket = ? and unit_name = ?")) {
            ps.setInt(1, OwnershipFence.RING_LOG);
            ps.setString(2, ring.unitName());
            ps.executeUpdate();
        }
    }

    @Override
    public boolean promoted(Connection target) throws SQLException {
        return OwnershipFence.OWNED.equals(state(target));
    }

    @Override
    public void promoteClaims(Connection target, int mapVersion) throws SQLException {
        setState(target, OwnershipFence.OWNED, List.of(OwnershipFence.INCOMING), 0, mapVersion, null);
    }

    private String state(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "select state from as_ring_fence where unit_name = ?")) {
            ps.setString(1, ring.unitName());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /**
     * The unit's ring row to {@code to} with {@code peer} if it is in one of {@code from}; its map version raised to
     * {@code mapVersion} (-1: kept).
     */
    private int setState(Connection connection, String to, List<String> from, int timeoutSeconds, int mapVersion,
                         String peer) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("update as_ring_fence set state = ?, peer = ?, "
                + "map_version = case when map_version < ? then ? else map_version end "
                + "where unit_name = ? and state in (?, ?)")) {
            ps.setQueryTimeout(timeoutSeconds);
            ps.setString(1, to);
            ps.setString(2, peer);
            ps.setInt(3, mapVersion);
            ps.setInt(4, mapVersion);
            ps.setString(5, ring.unitName());
            ps.setString(6, from.get(0));
            ps.setString(7, from.get(from.size() - 1));
            return ps.executeUpdate();
        }
    }
}
