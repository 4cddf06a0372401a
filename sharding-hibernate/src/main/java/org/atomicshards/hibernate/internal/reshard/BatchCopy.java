package org.atomicshards.hibernate.internal.reshard;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.hibernate.internal.metrics.ShardMetrics;

/**
 * The copying half of a batch, between its source and the target's staging tables: the units copied in chunks,
 * copied again as the writers' change log names them (catch-up), and compared with the source (row count and
 * checksum per table per unit). Never changes who owns what; the {@link Mover} fences and switches around it.
 */
final class BatchCopy {

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
            long rows = copier.copy(src, dst, dstSql, part);
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
                Map<RowCopier, List<Object>> mismatches, Map<RowCopier, Set<Object>> unverified)
            throws SQLException {
        for (Map.Entry<RowCopier, List<Object>> entry : mismatches.entrySet()) {
            copyKeys(run, entry.getKey(), src, dst, dstSql, entry.getValue(), false);
            unverified.computeIfAbsent(entry.getKey(), c -> new HashSet<>()).addAll(entry.getValue());
        }
    }

    /**
     * Copies again the units written since they were copied, as logged by the writers in {@code as_moved_change},
     * and deletes the log entries handled; repeats until the delta is small or {@code rounds} ran out (under the
     * freeze, until it is empty). The units copied are added to {@code copied} unless it is null.
     *
     * @return the log entries the last round handled
     */
    int catchUp(MoveRun run, Connection src, Connection dst, ShardSql dstSql, BatchScope scope,
                 Map<RowCopier, Set<Object>> keys, int rounds, Map<RowCopier, Set<Object>> copied)
            throws SQLException {
        List<Integer> buckets = scope.logBuckets();
        Map<String, RowCopier> byUnit = new HashMap<>();
        run.copiers.forEach(c -> byUnit.put(c.tables().unit().unitName(), c));
        for (int round = 0; round < rounds; round++) {
            List<Long> seqs = new ArrayList<>();
            Map<RowCopier, Set<Object>> changed = new LinkedHashMap<>();
            Set<Integer> changedWhole = new HashSet<>();
            try (PreparedStatement ps = src.prepareStatement("select seq, unit_name, unit_key, bucket "
                    + "from as_moved_change where bucket in (" + "?, ".repeat(buckets.size() - 1) + "?)")) {
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
                        if (key != null && scope.moves(copier, key)) {
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
                Set<Object> known = keys.get(entry.getKey());
                for (Object key : entry.getValue()) {
                    if (known.add(key)) {
                        run.unitsTotal++;
                    }
                }
                copyKeys(run, entry.getKey(), src, dst, dstSql, new ArrayList<>(entry.getValue()), false);
                if (copied != null) {
                    copied.computeIfAbsent(entry.getKey(), c -> new HashSet<>()).addAll(entry.getValue());
                }
            }
            for (int from = 0; from < seqs.size(); from += 500) {
                List<Long> part = seqs.subList(from, Math.min(seqs.size(), from + 500));
                try (PreparedStatement ps = src.prepareStatement("delete from as_moved_change where seq in ("
                        + "?, ".repeat(part.size() - 1) + "?)")) {
                    for (int i = 0; i < part.size(); i++) {
                        ps.setLong(i + 1, part.get(i));
                    }
                    ps.executeUpdate();
                }
            }
            if (seqs.isEmpty() || (rounds != Integer.MAX_VALUE && seqs.size() < SMALL_DELTA)
                    || round == rounds - 1) {
                return seqs.size();
            }
        }
        return 0;
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
     * Before the freeze, after the full comparison: rounds of catching up and comparing the units copied since, so
     * that the freeze is left with the changes of the last round only, not with every unit the writers changed while
     * the whole batch was compared. A unit compared equal here and written afterwards is in the change log again, so
     * the freeze copies and compares it; {@code unverified} keeps the units copied since their last equal comparison.
     */
    void settle(MoveRun run, Connection src, ShardSql srcSql, Connection dst, ShardSql dstSql, BatchScope scope,
                Map<RowCopier, Set<Object>> keys, Map<RowCopier, Set<Object>> unverified) throws SQLException {
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
