package org.atomicshards.hibernate.internal.reshard.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.ReshardingConflictException;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.directory.RingChange;
import org.atomicshards.hibernate.internal.reshard.Ranges;

/**
 * The move journal in the catalog ({@code as_move}, {@code as_move_bucket}, schema version 4). Every state is
 * written here before the step it names takes effect; the map switch and its journal entry share one catalog
 * transaction.
 */
public final class MoveJournal {

    /** States of the batch in progress, in order; DONE and ABORTED end the operation. */
    public static final String PLANNED = "PLANNED";
    public static final String COPYING = "COPYING";
    public static final String FROZEN = "FROZEN";
    public static final String SWITCHED = "SWITCHED";
    public static final String PROMOTED = "PROMOTED";
    public static final String RELEASED = "RELEASED";
    public static final String DONE = "DONE";
    static final String ABORTED = "ABORTED";

    /** The kind of an operation that moves one unit of a placement policy alone. */
    public static final String MOVE_UNIT = "MOVE_UNIT";

    /** Every column {@link #move(ResultSet)} reads, in its order. */
    private static final String SELECT_MOVE = "select move_id, kind, target_shard, buckets, state, batch_no, owner_id, "
            + "lease_until, error, units_copied, rows_copied, started_at, checkpoint from as_move ";

    /**
     * One operation as recorded; {@code unit} is set for a {@link #MOVE_UNIT}, {@code ring} for a change of a
     * consistent-hash ring (each kept in the journal's {@code checkpoint} column).
     */
    public record Move(String id, String kind, ShardId target, String buckets, String state, int batch, String owner,
                Instant leaseUntil, String error, long units, long rows, Instant startedAt, UnitMove unit,
                RingChange ring) {

        public Move(String id, String kind, ShardId target, String buckets, String state, int batch, String owner,
             Instant leaseUntil, String error, long units, long rows, Instant startedAt, UnitMove unit) {
            this(id, kind, target, buckets, state, batch, owner, leaseUntil, error, units, rows, startedAt, unit, null);
        }

        /**
         * Whether its batch in progress holds up traffic until the operation goes on: frozen (its writes wait), switched
         * (they wait for the promotion) or promoted and not released (fan-outs find it claimed twice).
         */
        public boolean holdsUpTraffic() {
            return FROZEN.equals(state) || SWITCHED.equals(state) || PROMOTED.equals(state);
        }

        /** The journal's {@code checkpoint} text: what a unit move or a ring change needs besides the columns. */
        String checkpoint() {
            return unit != null ? unit.encode() : ring != null ? ring.encode() : null;
        }
    }

    /**
     * The unit of a {@link #MOVE_UNIT}: its unit and key text, the virtual shard it is placed on (on {@code source})
     * and the one it goes to (on the target).
     */
    public record UnitMove(String unitName, String keyText, int sourceBucket, ShardId source, int targetBucket) {

        String encode() {
            return sourceBucket + "|" + targetBucket + "|" + source.name() + "|" + unitName + "|" + keyText;
        }

        static UnitMove decode(String text) {
            if (text == null || text.isEmpty()) {
                return null;
            }
            String[] parts = text.split("\\|", 5); // the key text comes last and may hold the separator
            return new UnitMove(parts[3], parts[4], Integer.parseInt(parts[0]), ShardId.of(parts[2]),
                    Integer.parseInt(parts[1]));
        }

        boolean sameUnit(UnitMove other) {
            return other != null && unitName.equals(other.unitName) && keyText.equals(other.keyText);
        }

        @Override
        public String toString() {
            return "unit " + unitName + " key " + keyText;
        }
    }

    /** One virtual shard of an operation: where it comes from and in which batch it switches. */
    public record Bucket(int bucket, ShardId source, int batch) {
    }

    private final Catalog catalog;

    public MoveJournal(Catalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Records a new operation and reserves its virtual shards, in one transaction, serialised with every other
     * operation being recorded (a lock in the catalog), so that the conflicts checked here cannot pass two operations
     * started at the same moment.
     *
     * @throws ReshardingConflictException naming the operation in progress on one of the virtual shards or into
     *         the same target
     */
    public void create(Move move, List<Bucket> buckets) {
        for (int attempt = 0; ; attempt++) {
            try {
                record(move, buckets);
                return;
            } catch (RuntimeException e) {
                if (move.ring() != null && attempt < 5 && Catalog.isDuplicateKey(e)) {
                    continue; // another writer stored the map version a ring change writes too
                }
                throw e;
            }
        }
    }

    private void record(Move move, List<Bucket> buckets) {
        catalog.inTransaction("record move " + move.id(), connection -> {
            // operations are recorded one at a time: the checks below read what the others recorded, not a snapshot
            // two of them took at the same moment
            try (PreparedStatement ps = connection.prepareStatement(
                    "select version from as_schema_version for update")) {
                ps.executeQuery().close();
            }
            if (move.ring() != null && move.ring().joining()) {
                catalog.requireNotRetired(connection, List.of(move.target().name())); // serialised with a retirement
            }
            for (Move other : unfinished(connection)) {
                if (move.ring() != null && other.ring() != null
                        && move.ring().unitName().equals(other.ring().unitName())) {
                    throw new ReshardingConflictException("Cannot change the consistent-hash ring of unit "
                            + move.ring().unitName() + ": operation " + other.id() + " (" + other.kind() + " of shard '"
                            + other.target() + "', state " + other.state() + ") is changing it. Fix: wait for it, or "
                            + "finish it with ShardAdmin.resume()", other.id());
                }
                if (move.unit() != null && move.unit().sameUnit(other.unit())) {
                    throw new ReshardingConflictException("Cannot move " + move.unit() + " to shard '"
                            + move.target() + "': operation " + other.id() + " (" + other.kind() + " to shard '"
                            + other.target() + "', state " + other.state() + ") is moving it. Fix: wait for it, or "
                            + "finish it with ShardAdmin.resume()", other.id());
                }
                if (other.target().equals(move.target())) {
                    throw new ReshardingConflictException("Cannot start " + move.kind() + " into shard '"
                            + move.target() + "': operation " + other.id() + " (" + other.kind() + " of virtual shards "
                            + other.buckets() + ", state " + other.state() + ") is moving into it. Fix: wait for it, or "
                            + "finish it with ShardAdmin.resume()", other.id());
                }
            }
            try (PreparedStatement ps = connection.prepareStatement("select b.bucket, b.move_id, m.kind, m.state "
                    + "from as_move_bucket b join as_move m on m.move_id = b.move_id")) {
                try (ResultSet rs = ps.executeQuery()) {
                    java.util.Set<Integer> wanted = new java.util.HashSet<>();
                    buckets.forEach(b -> wanted.add(b.bucket()));
                    while (rs.next()) {
                        if (wanted.contains(rs.getInt(1))) {
                            throw new ReshardingConflictException("Cannot start " + move.kind() + " of virtual shard "
                                    + rs.getInt(1) + ": operation " + rs.getString(2) + " (" + rs.getString(3)
                                    + ", state " + rs.getString(4) + ") is moving it. Fix: wait for it, or finish "
                                    + "it with ShardAdmin.resume()", rs.getString(2));
                        }
                    }
                }
            }
            Timestamp now = Timestamp.from(Instant.now());
            try (PreparedStatement ps = connection.prepareStatement("insert into as_move (move_id, kind, target_shard, "
                    + "buckets, state, batch_no, owner_id, lease_until, units_copied, rows_copied, started_at, "
                    + "updated_at, checkpoint) values (?, ?, ?, ?, ?, 0, ?, ?, 0, 0, ?, ?, ?)")) {
                ps.setString(1, move.id());
                ps.setString(2, move.kind());
                ps.setString(3, move.target().name());
                ps.setString(4, move.buckets());
                ps.setString(5, PLANNED);
                ps.setString(6, move.owner());
                ps.setTimestamp(7, Timestamp.from(move.leaseUntil()));
                ps.setTimestamp(8, now);
                ps.setTimestamp(9, now);
                ps.setString(10, move.checkpoint());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "insert into as_move_bucket (bucket, move_id, source_shard, batch_no) values (?, ?, ?, ?)")) {
                for (Bucket bucket : buckets) {
                    ps.setInt(1, bucket.bucket());
                    ps.setString(2, move.id());
                    ps.setString(3, bucket.source().name());
                    ps.setInt(4, bucket.batch());
                    ps.addBatch();
                }
                ps.executeBatch();
            } catch (SQLException e) {
                if (Catalog.isDuplicateKey(e)) {
                    throw new ReshardingConflictException("Cannot start " + move.kind() + " of virtual shards "
                            + move.buckets() + ": another operation reserved one of them at the same moment. Fix: see "
                            + "ShardAdmin.operations()", "unknown");
                }
                throw e;
            }
            if (move.ring() != null) {
                // every instance re-reads the rings at its next refresh, and so knows which keys the change moves
                insertNextMapVersion(connection, "move " + move.id() + ": " + move.kind() + " of shard "
                        + move.target() + " for unit " + move.ring().unitName() + " recorded", owners -> {
                        });
            }
            Catalog.logOperation(connection, "MOVE_PLANNED", move.id() + " " + move.kind() + " of virtual shards "
                    + move.buckets() + " to " + move.target());
            return null;
        });
    }

    /**
     * Records that batch {@code batch} enters {@code state}, renewing the lease of {@code owner}.
     *
     * @throws OperationLost if {@code owner} no longer holds the operation
     */
    public void state(String moveId, int batch, String state, String owner, Instant leaseUntil) {
        catalog.inTransaction("record move " + moveId + " " + state, connection -> {
            update(connection, moveId, batch, state, owner, leaseUntil);
            return null;
        });
    }

    private static void update(Connection connection, String moveId, int batch, String state, String owner,
                               Instant leaseUntil) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("update as_move set state = ?, batch_no = ?, "
                + "lease_until = ?, error = null, updated_at = ? where move_id = ? and owner_id = ?")) {
            ps.setString(1, state);
            ps.setInt(2, batch);
            ps.setTimestamp(3, Timestamp.from(leaseUntil));
            ps.setTimestamp(4, Timestamp.from(Instant.now()));
            ps.setString(5, moveId);
            ps.setString(6, owner);
            if (ps.executeUpdate() != 1) {
                throw new OperationLost(moveId, owner, "the journal names another run, or none");
            }
        }
    }

    /**
     * Extends the lease of {@code owner} on the operation to {@code leaseUntil}, if it still holds it (the heartbeat of
     * a run, independent of how long its steps take).
     *
     * @return false if another run holds the operation now, or it ended
     */
    boolean renew(String moveId, String owner, Instant leaseUntil) {
        return catalog.inTransaction("renew the lease on move " + moveId, connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_move set lease_until = ? where move_id = ? and owner_id = ? and state <> ? "
                            + "and state <> ?")) {
                ps.setTimestamp(1, Timestamp.from(leaseUntil));
                ps.setString(2, moveId);
                ps.setString(3, owner);
                ps.setString(4, DONE);
                ps.setString(5, ABORTED);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * Records a failure of {@code owner}'s run (the state stays where it was) and releases the operation: its run has
     * stopped, so any instance's (or the command-line tool's) resume may take it over at once. Only a run that dies
     * without getting here (a killed process) holds it until its lease lapses. Nothing is recorded for a run that no
     * longer holds the operation.
     */
    public void error(String moveId, String owner, String error) {
        catalog.inTransaction("record the failure of move " + moveId, connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "update as_move set error = ?, owner_id = null, lease_until = null, updated_at = ? "
                            + "where move_id = ? and owner_id = ?")) {
                ps.setString(1, error == null ? "unknown" : error.length() > 1000 ? error.substring(0, 1000) : error);
                ps.setTimestamp(2, Timestamp.from(Instant.now()));
                ps.setString(3, moveId);
                ps.setString(4, owner);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /** Records the figures of {@code owner}'s run, if it still holds the operation. */
    public void progress(String moveId, String owner, long units, long rows) {
        catalog.inTransaction("record the progress of move " + moveId, connection -> {
            try (PreparedStatement ps = connection.prepareStatement("update as_move set units_copied = ?, "
                    + "rows_copied = ?, updated_at = ? where move_id = ? and owner_id = ?")) {
                ps.setLong(1, units);
                ps.setLong(2, rows);
                ps.setTimestamp(3, Timestamp.from(Instant.now()));
                ps.setString(4, moveId);
                ps.setString(5, owner);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * The map switch of one batch, in one catalog transaction: the latest map with {@code buckets} given to
     * {@code target} as version + 1, and the journal's SWITCHED. Retried if another writer stored a version first.
     *
     * @return the new map version
     */
    public int switchMap(String moveId, int batch, List<Integer> buckets, ShardId target, String owner, Instant leaseUntil) {
        return switchOver(moveId, batch, "move " + moveId + " batch " + batch + ": " + Ranges.of(buckets) + " to "
                + target, owners -> buckets.forEach(b -> owners[b] = target.name()), connection -> {
                }, owner, leaseUntil);
    }

    /**
     * The switch of a unit moved alone, in one catalog transaction: its placement set to the target's virtual shard,
     * a map version + 1 with the same owners (so every instance's refresh re-reads the placements, and the source's
     * fence can tell a reader on an older map to refresh), and the journal's SWITCHED.
     *
     * @return the new map version
     */
    public int switchPlacement(String moveId, UnitMove unit, ShardId target, String owner, Instant leaseUntil) {
        return switchOver(moveId, 0, "move " + moveId + ": " + unit + " to shard " + target + " (virtual shard "
                + unit.targetBucket() + ")", owners -> {
                }, connection -> {
                    try (PreparedStatement ps = connection.prepareStatement("update as_placement set virtual_shard = ? "
                            + "where unit_name = ? and unit_key = ?")) {
                        ps.setInt(1, unit.targetBucket());
                        ps.setString(2, unit.unitName());
                        ps.setString(3, unit.keyText());
                        if (ps.executeUpdate() != 1) {
                            throw new SQLException("The catalog has no placement of " + unit);
                        }
                    }
                }, owner, leaseUntil);
    }

    private interface CatalogStep {
        void run(Connection connection) throws SQLException;
    }

    private int switchOver(String moveId, int batch, String note, java.util.function.Consumer<String[]> change,
                           CatalogStep also, String owner, Instant leaseUntil) {
        return withNewMapVersion("switch the map for move " + moveId, note, change, connection -> {
            also.run(connection);
            update(connection, moveId, batch, SWITCHED, owner, leaseUntil);
        });
    }

    /**
     * The switch of one batch of a ring change, in one catalog transaction: a map version + 1 with the same owners
     * (routers take the batch's source as switched from that version on; the source's ring fence turns away those
     * with an older map) and the journal's SWITCHED.
     *
     * @return the new map version
     */
    public int switchRing(String moveId, int batch, RingChange ring, String owner, Instant leaseUntil) {
        return switchOver(moveId, batch, "move " + moveId + " batch " + batch + ": keys of unit " + ring.unitName()
                + " from " + ring.handover(batch).from() + " to " + ring.handover(batch).to(), owners -> {
                }, connection -> {
                }, owner, leaseUntil);
    }

    /**
     * Ends a ring change, in one catalog transaction: the member recorded in the ring or removed from it, a map version
     * + 1 with the same owners (so that every instance reloads the ring at its next refresh), and the operation DONE.
     */
    public void finishRing(String moveId, String owner, RingChange ring, String summary) {
        withNewMapVersion("finish move " + moveId, "move " + moveId + ": shard " + ring.member()
                + (ring.joining() ? " joined" : " left") + " the ring of unit " + ring.unitName(), owners -> {
                }, connection -> {
                    try (PreparedStatement ps = connection.prepareStatement(ring.joining()
                            ? "insert into as_ring_member (unit_name, shard_id) values (?, ?)"
                            : "delete from as_ring_member where unit_name = ? and shard_id = ?")) {
                        ps.setString(1, ring.unitName());
                        ps.setString(2, ring.member().name());
                        ps.executeUpdate();
                    }
                    finish(connection, moveId, owner, DONE, summary);
                });
    }

    /** In the caller's catalog transaction: the latest map changed by {@code change}, stored as version + 1 (returned). */
    private int insertNextMapVersion(Connection connection, String note, java.util.function.Consumer<String[]> change)
            throws SQLException {
        Catalog.StoredMap latest = catalog.latestMap(connection)
                .orElseThrow(() -> new SQLException("The catalog holds no virtual shard map"));
        String[] owners = latest.owners().clone();
        change.accept(owners);
        Catalog.insertMap(connection, latest.version() + 1, owners,
                note.length() > 200 ? note.substring(0, 197) + "..." : note);
        return latest.version() + 1;
    }

    /**
     * Runs {@code also} in one catalog transaction with a new map version: the latest map changed by {@code change},
     * stored as version + 1. Retried if another writer stored a version first.
     *
     * @return the new map version
     */
    private int withNewMapVersion(String what, String note, java.util.function.Consumer<String[]> change,
                                  CatalogStep also) {
        for (int attempt = 0; ; attempt++) {
            try {
                return catalog.inTransaction(what, connection -> {
                    int version = insertNextMapVersion(connection, note, change);
                    also.run(connection);
                    return version;
                });
            } catch (RuntimeException e) {
                if (attempt < 5 && Catalog.isDuplicateKey(e)) {
                    continue;
                }
                throw e;
            }
        }
    }

    /**
     * Ends {@code owner}'s operation: its reservations are released, the figures logged.
     *
     * @throws OperationLost if {@code owner} no longer holds the operation
     */
    public void finish(String moveId, String owner, String state, String summary) {
        catalog.inTransaction("finish move " + moveId, connection -> {
            finish(connection, moveId, owner, state, summary);
            return null;
        });
    }

    private static void finish(Connection connection, String moveId, String owner, String state, String summary)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "update as_move set state = ?, owner_id = null, updated_at = ? where move_id = ? and owner_id = ?")) {
            ps.setString(1, state);
            ps.setTimestamp(2, Timestamp.from(Instant.now()));
            ps.setString(3, moveId);
            ps.setString(4, owner);
            if (ps.executeUpdate() != 1) {
                throw new OperationLost(moveId, owner, "the journal names another run, or none");
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("delete from as_move_bucket where move_id = ?")) {
            ps.setString(1, moveId);
            ps.executeUpdate();
        }
        Catalog.logOperation(connection, "MOVE_" + state, moveId + ": " + summary);
    }

    /**
     * Takes the unfinished operation for a new run with token {@code token} of the instance {@code instance} if it is
     * unowned, held by an earlier run of that instance (the caller knows none of its runs holds it now), or its
     * holder's lease lapsed; and reads it as it stands under the claim: a list read before may be older than the step
     * its last run stopped at. From then on every journal write of the earlier run fails ({@link OperationLost}).
     *
     * @return the operation the run holds now; empty if another holds it or it has ended
     */
    public Optional<Move> claim(String moveId, String instance, String token, Instant leaseUntil) {
        return catalog.inTransaction("claim move " + moveId, connection -> {
            try (PreparedStatement ps = connection.prepareStatement("update as_move set owner_id = ?, lease_until = ?, "
                    + "updated_at = ? where move_id = ? and (owner_id is null or owner_id like ? or lease_until < ?) "
                    + "and state <> ? and state <> ?")) {
                ps.setString(1, token);
                ps.setTimestamp(2, Timestamp.from(leaseUntil));
                ps.setTimestamp(3, Timestamp.from(Instant.now()));
                ps.setString(4, moveId);
                ps.setString(5, instance + "/%");
                ps.setTimestamp(6, Timestamp.from(Instant.now()));
                ps.setString(7, DONE);
                ps.setString(8, ABORTED);
                if (ps.executeUpdate() != 1) {
                    return Optional.<Move>empty();
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(SELECT_MOVE + "where move_id = ?")) {
                ps.setString(1, moveId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next(); // the row the update above took
                    return Optional.of(move(rs));
                }
            }
        });
    }

    /** How many operations the journal holds as ended ({@code DONE} or {@code ABORTED}); it only grows. */
    public long endedCount() {
        return catalog.inTransaction("count the ended moves", connection -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "select count(*) from as_move where state = ? or state = ?")) {
                ps.setString(1, DONE);
                ps.setString(2, ABORTED);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    public List<Move> unfinished() {
        return catalog.inTransaction("read the move journal", MoveJournal::unfinished);
    }

    private static List<Move> unfinished(Connection connection) throws SQLException {
        List<Move> moves = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_MOVE
                + "where state <> ? and state <> ? order by started_at, move_id")) {
            ps.setString(1, DONE);
            ps.setString(2, ABORTED);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    moves.add(move(rs));
                }
            }
        }
        return moves;
    }

    private static Move move(ResultSet rs) throws SQLException {
        Timestamp lease = rs.getTimestamp(8);
        String kind = rs.getString(2);
        return new Move(rs.getString(1), kind, ShardId.of(rs.getString(3)), rs.getString(4), rs.getString(5),
                rs.getInt(6), rs.getString(7), lease == null ? null : lease.toInstant(), rs.getString(9),
                rs.getLong(10), rs.getLong(11), rs.getTimestamp(12).toInstant(),
                MOVE_UNIT.equals(kind) ? UnitMove.decode(rs.getString(13)) : null,
                RingChange.isRingChange(kind) ? RingChange.decode(kind, rs.getString(13)) : null);
    }

    /** The virtual shards of an operation by batch, each batch's sorted. */
    public Map<Integer, List<Bucket>> buckets(String moveId) {
        return catalog.inTransaction("read the virtual shards of move " + moveId, connection -> {
            Map<Integer, List<Bucket>> batches = new TreeMap<>();
            try (PreparedStatement ps = connection.prepareStatement("select bucket, source_shard, batch_no "
                    + "from as_move_bucket where move_id = ? order by batch_no, bucket")) {
                ps.setString(1, moveId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        batches.computeIfAbsent(rs.getInt(3), b -> new ArrayList<>())
                                .add(new Bucket(rs.getInt(1), ShardId.of(rs.getString(2)), rs.getInt(3)));
                    }
                }
            }
            return batches;
        });
    }
}
