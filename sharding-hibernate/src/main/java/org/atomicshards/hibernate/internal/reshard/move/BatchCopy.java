package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;

/**
 * The copying half of a batch, between its source and the target's staging tables: the units copied in chunks,
 * the rows (or units) the writers' change log names copied again (catch-up), and compared with the source (row count
 * and checksum per table per unit, or per changed row). Never changes who owns what; the {@link Mover} fences and switches around it.
 */
public final class BatchCopy {

    /** Catch-up rounds before the freeze; they stop early once the delta is small. */
    static final int CATCH_UP_ROUNDS = 5;
    private static final int SMALL_DELTA = 20;

    private final ShardMetrics metrics;

    BatchCopy(ShardMetrics metrics) {
        this.metrics = metrics;
    }

    void copyKeys(MoveRun run, RowCopier copier, Connection src, Connection dst, ShardSql dstSql,
                  List<Object> keys, boolean initial) throws SQLException {
        int chunk = run.options.unitsPerChunk();
        for (int from = 0; from < keys.size(); from += chunk) {
            run.ensureHeld();
            List<Object> part = keys.subList(from, Math.min(keys.size(), from + chunk));
            long rows = copier.copy(src, dst, dstSql, part, run.shardToken);
            run.rowsCopied += rows;
            run.unitsCopied += part.size();
            if (initial) {
                run.unitsCopiedOnce += part.size();
            }
            metrics.moveCopied(run.move.target(), part.size(), rows);
            run.progress();
            if (initial && from == 0) {
                MoveFaults.at("mid-copy");
            }
        }
    }

    /** Copies {@code mismatches} again (the source stays authoritative) and notes them as not verified since. */
    void recopy(MoveRun run, Connection src, Connection dst, ShardSql dstSql,
                Map<RowCopier, List<Object>> mismatches, UnverifiedCopies unverified) throws SQLException {
        for (Map.Entry<RowCopier, List<Object>> entry : mismatches.entrySet()) {
            copyKeys(run, entry.getKey(), src, dst, dstSql, entry.getValue(), false);
            unverified.addUnits(entry.getKey(), entry.getValue());
        }
    }

    /**
     * Copies again what the writers logged in {@code as_moved_change} since it was copied, and deletes the log entries
     * handled; repeats until the delta is small or {@code rounds} ran out (under the freeze, until it is empty). An
     * entry naming a row copies that row's family again (the row and the rows hanging off it); an entry naming a unit,
     * or a row the log cannot copy alone, copies the unit whole; an entry naming a whole virtual shard copies every
     * unit of it. What was copied is added to {@code copied} unless it is null.
     *
     * @return the log entries the last round handled
     */
    int catchUp(MoveRun run, Connection src, Connection dst, ShardSql dstSql, BatchScope scope,
                Map<RowCopier, Set<Object>> keys, int rounds, UnverifiedCopies copied) throws SQLException {
        List<Integer> buckets = scope.logBuckets();
        Map<String, RowCopier> byUnit = new HashMap<>();
        run.copiers.forEach(c -> byUnit.put(c.tables().unit().unitName(), c));
        for (int round = 0; round < rounds; round++) {
            List<Long> seqs = new ArrayList<>();
            Map<RowCopier, Set<Object>> changed = new LinkedHashMap<>();
            Map<RowCopier, Map<String, Map<String, Object>>> changedRows = new LinkedHashMap<>();
            Set<Integer> changedWhole = new HashSet<>();
            try (PreparedStatement ps = src.prepareStatement("select seq, unit_name, unit_key, bucket, table_name, "
                    + "row_id from as_moved_change where bucket in (" + "?, ".repeat(buckets.size() - 1) + "?)")) {
                for (int i = 0; i < buckets.size(); i++) {
                    ps.setInt(i + 1, buckets.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        seqs.add(rs.getLong(1));
                        if (OwnershipFence.ANY_UNIT.equals(rs.getString(2))) {
                            changedWhole.add(rs.getInt(4));
                            continue;
                        }
                        RowCopier copier = byUnit.get(rs.getString(2));
                        Object key = copier == null ? null : copier.toKey(rs.getString(3));
                        if (key == null || !scope.moves(copier, key)) {
                            continue;
                        }
                        String table = rs.getString(5);
                        if (table != null && copier.tables().family(table) != null) {
                            changedRows.computeIfAbsent(copier, c -> new LinkedHashMap<>())
                                    .computeIfAbsent(table, t -> new LinkedHashMap<>()).put(rs.getString(6), key);
                        } else {
                            changed.computeIfAbsent(copier, c -> new HashSet<>()).add(key);
                        }
                    }
                }
            }
            if (!changedWhole.isEmpty()) {
                for (RowCopier copier : run.copiers) {
                    Set<Object> units = unitsOf(copier, src, scope, keys.get(copier), changedWhole);
                    if (!units.isEmpty()) {
                        changed.computeIfAbsent(copier, c -> new HashSet<>()).addAll(units);
                    }
                }
            }
            for (Map.Entry<RowCopier, Set<Object>> entry : changed.entrySet()) {
                note(run, keys.get(entry.getKey()), entry.getValue());
                copyKeys(run, entry.getKey(), src, dst, dstSql, new ArrayList<>(entry.getValue()), false);
                if (copied != null) {
                    copied.addUnits(entry.getKey(), entry.getValue());
                }
            }
            for (Map.Entry<RowCopier, Map<String, Map<String, Object>>> entry : changedRows.entrySet()) {
                Set<Object> whole = changed.getOrDefault(entry.getKey(), Set.of());
                for (Map.Entry<String, Map<String, Object>> table : entry.getValue().entrySet()) {
                    table.getValue().values().removeIf(whole::contains); // copied with their whole unit
                    note(run, keys.get(entry.getKey()), table.getValue().values());
                    copyRows(run, entry.getKey(), src, dst, dstSql, table.getKey(), table.getValue(), copied);
                }
            }
            for (int from = 0; from < seqs.size(); from += 500) {
                List<Long> part = seqs.subList(from, Math.min(seqs.size(), from + 500));
                LocalTransaction.run(src, run.shardToken, () -> {
                    try (PreparedStatement ps = src.prepareStatement("delete from as_moved_change where seq in ("
                            + "?, ".repeat(part.size() - 1) + "?)")) {
                        for (int i = 0; i < part.size(); i++) {
                            ps.setLong(i + 1, part.get(i));
                        }
                        ps.executeUpdate();
                    }
                });
            }
            if (seqs.isEmpty() || (rounds != Integer.MAX_VALUE && seqs.size() < SMALL_DELTA)
                    || round == rounds - 1) {
                return seqs.size();
            }
        }
        return 0;
    }

    /** Adds units the writers created during the copy to the batch's {@code known} keys (the release deletes them). */
    private static void note(MoveRun run, Set<Object> known, Collection<Object> units) {
        for (Object key : units) {
            if (known.add(key)) {
                run.unitsTotal++;
            }
        }
    }

    /** Copies the families of {@code ids} (each with its unit's key), rows of {@code table}, a chunk at a time. */
    private void copyRows(MoveRun run, RowCopier copier, Connection src, Connection dst, ShardSql dstSql, String table,
                          Map<String, Object> ids, UnverifiedCopies copied) throws SQLException {
        UnitTables.RowFamily family = copier.tables().family(table);
        List<String> all = new ArrayList<>(ids.keySet());
        int chunk = run.options.unitsPerChunk();
        for (int from = 0; from < all.size(); from += chunk) {
            run.ensureHeld();
            List<String> part = all.subList(from, Math.min(all.size(), from + chunk));
            long rows = copier.copyRows(src, dst, dstSql, family, part, run.shardToken);
            run.rowsCopied += rows;
            metrics.moveCopied(run.move.target(), 0, rows);
            run.progress();
        }
        if (copied != null) {
            copied.addRows(copier, table, ids);
        }
    }

    /**
     * Every unit of {@code copier} that the batch moves in {@code buckets}, which a write the library could not attribute
     * to units changed whole ({@link OwnershipFence#ANY_UNIT}; {@link OwnershipFence#RING_LOG}: every key the batch
     * moves): those found on the source now, and those {@code known} there before (the write may have deleted them).
     */
    private static Set<Object> unitsOf(RowCopier copier, Connection src, BatchScope scope, Set<Object> known,
                                       Set<Integer> buckets) throws SQLException {
        Set<Object> candidates = new HashSet<>(copier.scanKeys(src));
        if (known != null) {
            candidates.addAll(known);
        }
        Set<Object> units = new HashSet<>();
        for (Object key : candidates) {
            if (scope.moves(copier, key) && (buckets.contains(OwnershipFence.RING_LOG)
                    || buckets.contains(copier.tables().unit().placement().virtualShardOf(key)))) {
                units.add(key);
            }
        }
        return units;
    }

    /**
     * Before the freeze, after the full comparison: rounds of catching up and comparing what was copied since, so that
     * the freeze is left with the changes of the last round only, not with everything the writers changed while the
     * whole batch was compared. A row compared equal here and written afterwards is in the change log again, so the
     * freeze copies and compares it; {@code unverified} keeps what was copied since its last equal comparison.
     */
    void settle(MoveRun run, Connection src, ShardSql srcSql, Connection dst, ShardSql dstSql, BatchScope scope,
                Map<RowCopier, Set<Object>> keys, UnverifiedCopies unverified) throws SQLException {
        for (int round = 0; round < CATCH_UP_ROUNDS; round++) {
            int delta = catchUp(run, src, dst, dstSql, scope, keys, 1, unverified);
            Map<RowCopier, List<Object>> mismatches = verify(run, src, srcSql, dst, dstSql, unverified);
            unverified.clear();
            recopy(run, src, dst, dstSql, mismatches, unverified);
            if (delta < SMALL_DELTA) {
                return;
            }
        }
    }

    /**
     * Compares what {@code unverified} names on the source with its staged copy: each unit copied whole (row count
     * and checksum per table), each row family copied (the same per table, for the family's rows).
     *
     * @return the units that differ, by copier: copied again whole by {@link #recopy}
     */
    Map<RowCopier, List<Object>> verify(MoveRun run, Connection src, ShardSql srcSql, Connection dst,
                                        ShardSql dstSql, UnverifiedCopies unverified) throws SQLException {
        Map<RowCopier, List<Object>> mismatches = verify(run, src, srcSql, dst, dstSql, unverified.units());
        int chunk = run.options.unitsPerChunk();
        for (Map.Entry<RowCopier, Map<String, Map<String, Object>>> entry : unverified.rows().entrySet()) {
            RowCopier copier = entry.getKey();
            Set<Object> differing = new HashSet<>(mismatches.getOrDefault(copier, List.of()));
            for (Map.Entry<String, Map<String, Object>> table : entry.getValue().entrySet()) {
                UnitTables.RowFamily family = copier.tables().family(table.getKey());
                List<String> ids = new ArrayList<>(table.getValue().keySet());
                for (int from = 0; from < ids.size(); from += chunk) {
                    List<String> part = ids.subList(from, Math.min(ids.size(), from + chunk));
                    for (String id : copier.differingRows(src, srcSql, dst, dstSql, family, part)) {
                        Object key = table.getValue().get(id);
                        if (differing.add(key)) {
                            mismatches.computeIfAbsent(copier, c -> new ArrayList<>()).add(key);
                        }
                    }
                }
            }
        }
        return mismatches;
    }

    /** Compares each of {@code keys}' units on the source with its staged copy: row count and checksum per table. */
    Map<RowCopier, List<Object>> verify(MoveRun run, Connection src, ShardSql srcSql, Connection dst,
                                        ShardSql dstSql, Map<RowCopier, Set<Object>> keys)
            throws SQLException {
        Map<RowCopier, List<Object>> mismatches = new LinkedHashMap<>();
        int chunk = run.options.unitsPerChunk();
        for (RowCopier copier : run.copiers) {
            List<Object> all = new ArrayList<>(keys.getOrDefault(copier, Set.of()));
            for (int from = 0; from < all.size(); from += chunk) {
                List<Object> part = all.subList(from, Math.min(all.size(), from + chunk));
                Map<Object, List<long[]>> left = copier.digest(src, srcSql, part, false);
                Map<Object, List<long[]>> right = copier.digest(dst, dstSql, part, true);
                for (Object key : part) {
                    if (!same(left.get(key), right.get(key))) {
                        mismatches.computeIfAbsent(copier, c -> new ArrayList<>()).add(key);
                    }
                }
            }
        }
        return mismatches;
    }

    private static boolean same(List<long[]> a, List<long[]> b) {
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i)[0] != b.get(i)[0] || a.get(i)[1] != b.get(i)[1]) {
                return false;
            }
        }
        return true;
    }
}
