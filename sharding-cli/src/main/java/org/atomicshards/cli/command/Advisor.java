package org.atomicshards.cli.command;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.Session;
import org.hibernate.persister.entity.AbstractEntityPersister;

/**
 * Reads an unsharded database through the annotated model (booted as a single shard, so the model is checked by the
 * same rules as at run time) and predicts how each unit's rows would spread under each policy. Reads only: one
 * grouped count per member entity, one query per extra candidate key, one count per reference-data entity.
 */
final class Advisor {

    private final Cluster cluster;
    private final ShardId source;

    Advisor(Cluster cluster) {
        this.cluster = cluster;
        this.source = cluster.shards().shards().get(0);
    }

    /**
     * @param candidates extra candidate keys, {@code Root.path} (simple or qualified root name)
     * @throws CliException if a candidate names no unit of the model or a path the root does not have
     */
    Advice advise(String database, List<Integer> shardCounts, int virtualShards, int ringNodes, List<String> candidates,
                  long referenceMaxRows) {
        Map<UnitRoutingImpl, List<String>> extraPaths = parse(candidates);
        List<Advice.Candidate> results = new ArrayList<>();
        try (Session session = cluster.shards().openReadOnlySession(source)) {
            for (UnitRoutingImpl unit : cluster.units()) {
                Map<Object, Long> rowsByKey = rowsByKey(session, unit);
                String keyPath = unit.shardKeyPath(unit.root());
                results.add(candidate(unit, keyPath, true, rowsByKey, 0, shardCounts, virtualShards, ringNodes));
                for (String path : extraPaths.getOrDefault(unit, List.of())) {
                    results.add(regrouped(session, unit, path, rowsByKey, shardCounts, virtualShards, ringNodes));
                }
            }
            return new Advice(database, virtualShards, ringNodes, results, tables(session, referenceMaxRows));
        }
    }

    /** {@code Root.path} options by unit. */
    private Map<UnitRoutingImpl, List<String>> parse(List<String> candidates) {
        Map<UnitRoutingImpl, List<String>> paths = new HashMap<>();
        for (String candidate : candidates) {
            UnitRoutingImpl match = null;
            String path = null;
            for (UnitRoutingImpl unit : cluster.units()) {
                for (String prefix : List.of(unit.root().getName() + ".", unit.root().getSimpleName() + ".")) {
                    if (candidate.startsWith(prefix) && candidate.length() > prefix.length()) {
                        match = unit;
                        path = candidate.substring(prefix.length());
                        break;
                    }
                }
            }
            if (match == null) {
                throw new CliException(ExitCodes.USAGE, "Option --candidate '" + candidate + "' names no root of the "
                        + "model. Fix: write Root.attributePath with Root one of " + cluster.units().stream()
                        .map(u -> u.root().getSimpleName()).toList() + ", e.g. User.country.code");
            }
            paths.computeIfAbsent(match, unit -> new ArrayList<>()).add(path);
        }
        return paths;
    }

    /** Rows per shard key: every member's rows grouped by its key column. */
    private Map<Object, Long> rowsByKey(Session session, UnitRoutingImpl unit) {
        Map<Object, Long> rows = new HashMap<>();
        for (Class<?> member : Cluster.countedMembers(unit)) {
            String path = "e." + unit.shardKeyPath(member);
            session.createQuery("select " + path + ", count(e) from " + cluster.entityName(member) + " e where "
                            + path + " is not null group by " + path, Object[].class)
                    .getResultStream().forEach(row -> rows.merge(row[0], (Long) row[1], Long::sum));
        }
        return rows;
    }

    /** A candidate key on the root: each root's unit rows added up under the root's value of {@code path}. */
    private Advice.Candidate regrouped(Session session, UnitRoutingImpl unit, String path, Map<Object, Long> rowsByKey,
                                       List<Integer> shardCounts, int virtualShards, int ringNodes) {
        String keyPath = "e." + unit.shardKeyPath(unit.root());
        List<Object[]> pairs;
        try {
            pairs = session.createQuery("select " + keyPath + ", e." + path + " from "
                    + cluster.entityName(unit.root()) + " e", Object[].class).getResultList();
        } catch (RuntimeException e) {
            throw new CliException(ExitCodes.USAGE, "Option --candidate " + unit.root().getSimpleName() + "." + path
                    + ": " + unit.root().getSimpleName() + " has no basic attribute path '" + path + "' ("
                    + e.getClass().getSimpleName() + "). Fix: name a basic attribute, e.g. country.code rather than country", e);
        }
        Map<Object, Long> regrouped = new HashMap<>();
        long unplaced = rowsByKey.values().stream().mapToLong(Long::longValue).sum();
        for (Object[] pair : pairs) {
            long rows = rowsByKey.getOrDefault(pair[0], 0L);
            if (pair[1] != null) {
                regrouped.merge(pair[1], rows, Long::sum);
                unplaced -= rows;
            }
        }
        return candidate(unit, path, false, regrouped, unplaced, shardCounts, virtualShards, ringNodes);
    }

    private static Advice.Candidate candidate(UnitRoutingImpl unit, String path, boolean declared, Map<Object, Long> rowsByKey,
                                              long unplaced, List<Integer> shardCounts, int virtualShards, int ringNodes) {
        long total = rowsByKey.values().stream().mapToLong(Long::longValue).sum();
        Optional<Map.Entry<Object, Long>> largest = rowsByKey.entrySet().stream()
                .max(Map.Entry.<Object, Long>comparingByValue().thenComparing(e -> e.getKey().toString(), (a, b) -> b.compareTo(a)));
        List<Prediction> predictions = new ArrayList<>();
        for (int shards : shardCounts) {
            predictions.add(Prediction.hash(rowsByKey, shards, virtualShards));
            predictions.add(Prediction.range(rowsByKey, shards));
            predictions.add(Prediction.consistentHash(rowsByKey, shards, ringNodes));
        }
        return new Advice.Candidate(unit.root().getName(), path, declared, rowsByKey.size(), total, unplaced,
                largest.map(e -> e.getKey().toString()).orElse(null), largest.map(Map.Entry::getValue).orElse(0L), predictions);
    }

    private List<Advice.Table> tables(Session session, long referenceMaxRows) {
        List<Advice.Table> tables = new ArrayList<>();
        for (Class<?> entity : cluster.referenceData()) {
            long rows = session.createQuery("select count(e) from " + cluster.entityName(entity) + " e", Long.class)
                    .getSingleResult();
            String table = cluster.persister(entity) instanceof AbstractEntityPersister p ? p.getTableName() : null;
            String verdict = rows <= referenceMaxRows
                    ? "reference data: copy to every shard"
                    : "large for reference data (" + rows + " rows on every shard, more than --reference-max-rows "
                    + referenceMaxRows + "): make it an atomic unit, or keep it in a database of its own";
            tables.add(new Advice.Table(entity.getName(), table, rows, true, verdict));
        }
        return tables;
    }
}
