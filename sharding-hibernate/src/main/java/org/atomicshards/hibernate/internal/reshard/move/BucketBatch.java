package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.reshard.Ranges;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;

/**
 * A batch of whole virtual shards of one source: their ownership rows are the fence, every unit on them moves, and the
 * switch gives them to the target in a new map version. The tombstones of units moved alone from these virtual shards
 * ({@code GONE} rows of {@code as_unit_fence}) travel with them, so an instance routing such a unit with a very old
 * placement is still turned away on the new owner.
 */
public final class BucketBatch implements BatchScope {

    private final ShardId source;
    private final ShardId target;
    private final List<Integer> buckets;
    private final Set<Integer> bucketSet;
    private final int mapVersion;
    private final SourceKeys sourceKeys;

    /** @param sourceKeys the units of every batch of the move from {@code source}, shared by those batches */
    BucketBatch(ShardId source, ShardId target, List<Integer> buckets, int mapVersion, SourceKeys sourceKeys) {
        this.source = source;
        this.target = target;
        this.buckets = List.copyOf(buckets);
        this.bucketSet = new HashSet<>(buckets);
        this.mapVersion = mapVersion;
        this.sourceKeys = sourceKeys;
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
        return buckets;
    }

    @Override
    public List<Integer> targetVirtualShards() {
        return buckets;
    }

    @Override
    public List<Integer> entryVirtualShards() {
        return buckets;
    }

    @Override
    public String describe() {
        return "virtual shards " + Ranges.of(buckets);
    }

    @Override
    public void claimTarget(Connection target, Connection source, MoveOptionsView options) throws SQLException {
        Map<Integer, String> present = OwnershipFence.states(target, bucketSet);
        List<Integer> missing = buckets.stream().filter(b -> !present.containsKey(b)).toList();
        OwnershipFence.insert(target, missing, OwnershipFence.INCOMING, mapVersion);
        List<Object[]> tombstones = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement(
                "select unit_name, unit_key, bucket from as_unit_fence where state = ?")) {
            ps.setString(1, OwnershipFence.GONE);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (bucketSet.contains(rs.getInt(3))) {
                        tombstones.add(new Object[] {rs.getString(1), rs.getString(2), rs.getInt(3)});
                    }
                }
            }
        }
        for (Object[] tombstone : tombstones) {
            UnitBatch.setUnitRow(target, (String) tombstone[0], (String) tombstone[1], (Integer) tombstone[2],
                    OwnershipFence.GONE);
        }
    }

    @Override
    public void startSource(Connection source, MoveOptionsView options) throws SQLException {
        OwnershipFence.startMoving(source, buckets, List.of(OwnershipFence.OWNED, OwnershipFence.FROZEN),
                options.freezeTimeout(), options.attempts(), options.guard());
        Map<Integer, String> states = OwnershipFence.states(source, bucketSet);
        for (int bucket : buckets) {
            if (!OwnershipFence.MOVING.equals(states.get(bucket))) {
                throw new IllegalStateException("shard source does not own virtual shard " + bucket + " (its "
                        + "ownership row is " + states.get(bucket) + "); the catalog's map and the shard disagree");
            }
        }
    }

    @Override
    public Set<Object> keysOf(RowCopier copier, Connection source) throws SQLException {
        return sourceKeys.keysOf(copier, buckets, source);
    }

    @Override
    public Set<Object> keysToRelease(RowCopier copier, Connection source) throws SQLException {
        Set<Object> keys = new HashSet<>();
        for (Object key : copier.scanKeys(source)) {
            if (bucketSet.contains(copier.tables().unit().placement().virtualShardOf(key))) {
                keys.add(key);
            }
        }
        return keys;
    }

    @Override
    public void freeze(Connection source, int timeoutSeconds) throws SQLException {
        OwnershipFence.closeGates(source, buckets, timeoutSeconds);
        try (PreparedStatement ps = source.prepareStatement(
                "update as_ownership set state = ? where bucket = ? and state = ?")) {
            ps.setQueryTimeout(timeoutSeconds);
            for (int bucket : buckets) {
                ps.setString(1, OwnershipFence.FROZEN);
                ps.setInt(2, bucket);
                ps.setString(3, OwnershipFence.MOVING);
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("virtual shard " + bucket + " is not MOVING on the source");
                }
            }
        }
    }

    @Override
    public void unfreeze(Connection source) throws SQLException {
        OwnershipFence.transition(source, buckets, List.of(OwnershipFence.FROZEN), OwnershipFence.MOVING);
    }

    @Override
    public void beforeSwitch(Connection target, int timeoutSeconds) {
        // the target's rows have been INCOMING since the copy began: nothing routes there before the switch
    }

    @Override
    public int switchOver(MoveJournal journal, String moveId, int batch, ShardId target, String owner,
                          Instant lease) {
        return journal.switchMap(moveId, batch, buckets, target, owner, lease);
    }

    @Override
    public void markSwitched(Connection source, int mapVersion) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("update as_ownership set state = ?, map_version = ? "
                + "where bucket = ? and state in (?, ?)")) {
            for (int bucket : buckets) {
                ps.setString(1, OwnershipFence.SWITCHED);
                ps.setInt(2, mapVersion);
                ps.setInt(3, bucket);
                ps.setString(4, OwnershipFence.FROZEN);
                ps.setString(5, OwnershipFence.SWITCHED);
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("virtual shard " + bucket + " is not FROZEN on the source after "
                            + "its switch");
                }
            }
        }
    }

    @Override
    public void releaseClaims(Connection source, int mapVersion) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("delete from as_ownership where bucket = ?");
             PreparedStatement log = source.prepareStatement("delete from as_moved_change where bucket = ?");
             PreparedStatement units = source.prepareStatement("delete from as_unit_fence where bucket = ?")) {
            for (int bucket : buckets) {
                ps.setInt(1, bucket);
                ps.executeUpdate();
                log.setInt(1, bucket);
                log.executeUpdate();
                units.setInt(1, bucket);
                units.executeUpdate();
            }
        }
    }

    @Override
    public boolean promoted(Connection target) throws SQLException {
        Map<Integer, String> states = OwnershipFence.states(target, bucketSet);
        return buckets.stream().allMatch(b -> OwnershipFence.OWNED.equals(states.get(b)));
    }

    @Override
    public void promoteClaims(Connection target, int mapVersion) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(
                "update as_ownership set state = ?, map_version = ? where bucket = ?")) {
            for (int bucket : buckets) {
                ps.setString(1, OwnershipFence.OWNED);
                ps.setInt(2, mapVersion);
                ps.setInt(3, bucket);
                ps.executeUpdate();
            }
        }
    }
}
