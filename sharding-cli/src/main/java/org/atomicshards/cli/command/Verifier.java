package org.atomicshards.cli.command;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Errors;
import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.Session;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Checks that every unit lives wholly on the shard the map names and nowhere else, that no member rows are left
 * without their root, and that each reference-data table holds the same rows on every shard.
 *
 * <p>Per unit and shard it streams the distinct shard keys of the root and of each member (one query each), routes
 * every key with the runtime's own routing, and keeps the root keys of one shard in memory while it checks that
 * shard's members. Reference data is compared row by row over plain JDBC, ordered by primary key. Reads only.
 */
final class Verifier {

    /** What {@code verify} checked and found. */
    record Result(int shards, long units, int entityTypes, int referenceDataTypes, List<Problem> problems) {
    }

    private final Cluster cluster;
    private final List<Problem> problems = new ArrayList<>();
    private final Set<ShardId> readable = new HashSet<>();

    Verifier(Cluster cluster) {
        this.cluster = cluster;
    }

    /** Every shard on the same schema version of the application's migrations (when a tool is configured). */
    private void verifySchemaVersions() {
        List<ShardSchemaVersion> versions = cluster.shards().schema().versions();
        if (!ShardSchemaVersion.differ(versions)) {
            return;
        }
        String newest = versions.stream().map(ShardSchemaVersion::version).filter(java.util.Objects::nonNull)
                .max(Verifier::compareVersions).orElse(null);
        for (ShardSchemaVersion version : versions) {
            if (version.error() != null) {
                problems.add(new Problem(Problem.Kind.UNREADABLE, null, null, version.shard().name(), null,
                        "its migration history cannot be read: " + version.error()));
            } else if (!java.util.Objects.equals(version.version(), newest)) {
                problems.add(new Problem(Problem.Kind.SCHEMA_VERSION_DIFFERS, null, null, version.shard().name(),
                        newest, "schema version " + (version.version() == null ? "none" : version.version())
                        + ", others at " + newest + ": run schema migrate"));
            }
        }
    }

    /** Flyway-style versions by their dotted numbers where both are numeric, else as text. */
    static int compareVersions(String a, String b) {
        String[] left = a.split("[._]");
        String[] right = b.split("[._]");
        for (int i = 0; i < Math.max(left.length, right.length); i++) {
            String x = i < left.length ? left[i] : "0";
            String y = i < right.length ? right[i] : "0";
            int order = x.matches("\\d{1,18}") && y.matches("\\d{1,18}")
                    ? Long.compare(Long.parseLong(x), Long.parseLong(y)) : x.compareTo(y);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    Result verify() {
        List<ShardId> shards = cluster.shards().shards();
        for (ShardId shard : shards) {
            try (Session session = cluster.shards().openReadOnlySession(shard)) {
                session.doWork(connection -> connection.isValid(5));
                readable.add(shard);
            } catch (RuntimeException e) {
                problems.add(new Problem(Problem.Kind.UNREADABLE, null, null, shard.name(), null, Errors.message(e)));
            }
        }
        long units = 0;
        int entityTypes = 0;
        for (UnitRoutingImpl unit : cluster.units()) {
            units += verifyUnit(unit);
            entityTypes += Cluster.countedMembers(unit).size();
        }
        List<Class<?>> referenceData = cluster.referenceData();
        referenceData.forEach(this::verifyReferenceData);
        verifySchemaVersions();
        return new Result(shards.size(), units, entityTypes, referenceData.size(), List.copyOf(problems));
    }

    private long verifyUnit(UnitRoutingImpl unit) {
        long units = 0;
        for (ShardId shard : cluster.shards().shards()) {
            if (!readable.contains(shard)) {
                continue;
            }
            try (Session session = cluster.shards().openReadOnlySession(shard)) {
                Set<Object> roots = new HashSet<>();
                try (Stream<Object> keys = distinctKeys(session, unit, unit.root())) {
                    keys.forEach(key -> {
                        roots.add(key);
                        checkPlacement(unit, unit.root(), key, shard);
                    });
                }
                units += roots.size();
                for (Class<?> member : Cluster.countedMembers(unit)) {
                    if (member == unit.root()) {
                        continue;
                    }
                    try (Stream<Object> keys = distinctKeys(session, unit, member)) {
                        keys.forEach(key -> {
                            if (checkPlacement(unit, member, key, shard) && !roots.contains(key)) {
                                problems.add(new Problem(Problem.Kind.ORPHAN, member.getName(), key, shard.name(),
                                        shard.name(), "rows of " + simple(member) + " for key " + key + " but no "
                                        + simple(unit.root()) + " " + key + " on " + shard));
                            }
                        });
                    }
                }
            } catch (RuntimeException e) {
                problems.add(new Problem(Problem.Kind.UNREADABLE, unit.root().getName(), null, shard.name(), null,
                        Errors.message(e)));
            }
        }
        return units;
    }

    private Stream<Object> distinctKeys(Session session, UnitRoutingImpl unit, Class<?> entity) {
        String path = unit.shardKeyPath(entity);
        return session.createQuery("select distinct e." + path + " from " + cluster.entityName(entity) + " e "
                + "where e." + path + " is not null", Object.class).getResultStream();
    }

    /** @return whether the key belongs on {@code shard} */
    private boolean checkPlacement(UnitRoutingImpl unit, Class<?> entity, Object key, ShardId shard) {
        Set<ShardId> owners;
        try {
            owners = unit.shardsForKey(key);
        } catch (RuntimeException e) {
            problems.add(new Problem(Problem.Kind.MISPLACED, entity.getName(), key, shard.name(), null,
                    "the key cannot be routed: " + Errors.message(e)));
            return false;
        }
        if (owners.isEmpty()) {
            problems.add(new Problem(Problem.Kind.UNPLACED, entity.getName(), key, shard.name(), null,
                    simple(entity) + " rows of a unit the directory never placed"));
            return false;
        }
        if (!owners.contains(shard)) {
            String expected = String.join(",", owners.stream().map(ShardId::name).sorted().toList());
            problems.add(new Problem(Problem.Kind.MISPLACED, entity.getName(), key, shard.name(), expected,
                    (entity == unit.root() ? "root" : simple(entity) + " rows") + " of unit " + key + " on " + shard
                            + ", the map names " + expected));
            return false;
        }
        return true;
    }

    private void verifyReferenceData(Class<?> entity) {
        EntityPersister persister = cluster.persister(entity);
        if (!(persister instanceof AbstractEntityPersister mapped)) {
            return;
        }
        String sql = "select * from " + mapped.getTableName() + " order by " + String.join(", ", mapped.getIdentifierColumnNames());
        ShardId first = null;
        Map<String, Integer> expected = null;
        for (ShardId shard : cluster.shards().shards()) {
            if (!readable.contains(shard)) {
                continue;
            }
            Map<String, Integer> rows;
            try (Session session = cluster.shards().openReadOnlySession(shard)) {
                rows = session.doReturningWork(connection -> ReferenceRows.read(connection, sql));
            } catch (RuntimeException e) {
                problems.add(new Problem(Problem.Kind.UNREADABLE, entity.getName(), null, shard.name(), null, Errors.message(e)));
                continue;
            }
            if (first == null) {
                first = shard;
                expected = rows;
                continue;
            }
            if (!rows.equals(expected)) {
                int onlyHere = ReferenceRows.missingFrom(rows, expected);
                int onlyFirst = ReferenceRows.missingFrom(expected, rows);
                problems.add(new Problem(Problem.Kind.REFERENCE_DATA_DIFFERS, entity.getName(), null, shard.name(),
                        first.name(), "table " + mapped.getTableName() + ": " + onlyHere + " row(s) only on " + shard
                        + ", " + onlyFirst + " row(s) only on " + first + " (of " + size(rows) + " and " + size(expected) + ")"));
            }
        }
    }

    private static int size(Map<String, Integer> rows) {
        return rows.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static String simple(Class<?> type) {
        return type.getSimpleName();
    }
}
