package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/**
 * The soak test's end check, on what really is in every physical shard database (plain JDBC, whatever the map says):
 * every row is on one shard only; every unit that must exist is there, with an email it may carry and exactly the
 * members it must have (plus, where a write failed ambiguously, members it may have); no row belongs to a unit or
 * member that was never written or was deleted; and every unit lies wholly on the shard the map names for its key and
 * on no other shard. Returns the problems found, so that a test can also show that it finds them.
 */
final class SoakStateCheck {

    private final Map<Long, SoakUnit> expected;
    private final LongFunction<String> owner;

    /**
     * @param expected every unit the test wrote or may have written, by key
     * @param owner the shard the latest map names for a unit key
     */
    SoakStateCheck(Map<Long, SoakUnit> expected, LongFunction<String> owner) {
        this.expected = expected;
        this.owner = owner;
    }

    /** The rows of the unit tables on each of these shard databases of {@code dbs}, read directly. */
    static Map<String, List<SoakTable.Row>> read(ShardDatabases dbs, List<ShardDatabase> databases) {
        Map<String, List<SoakTable.Row>> rows = new LinkedHashMap<>();
        for (ShardDatabase shard : databases) {
            List<SoakTable.Row> ofShard = new ArrayList<>();
            try (Connection c = dbs.connect(shard.id())) {
                for (SoakTable table : SoakTable.values()) {
                    ofShard.addAll(table.readAll(c));
                }
            } catch (SQLException e) {
                throw new IllegalStateException("Cannot read the unit tables of shard " + shard.id(), e);
            }
            rows.put(shard.id(), ofShard);
        }
        return rows;
    }

    List<String> problems(Map<String, List<SoakTable.Row>> rowsByShard) {
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> shardsOfRow = new HashMap<>();
        Map<Long, Map<String, List<SoakTable.Row>>> byUnit = new TreeMap<>();
        rowsByShard.forEach((shard, rows) -> {
            for (SoakTable.Row row : rows) {
                if (!shardsOfRow.computeIfAbsent(row.identity(), k -> new TreeSet<>()).add(shard)) {
                    problems.add("row " + row.identity() + " is twice on shard " + shard);
                }
                byUnit.computeIfAbsent(row.unitKey(), k -> new TreeMap<>())
                        .computeIfAbsent(shard, k -> new ArrayList<>()).add(row);
            }
        });
        shardsOfRow.forEach((row, shards) -> {
            if (shards.size() > 1) {
                problems.add("row " + row + " is on " + shards.size() + " shards: " + shards);
            }
        });
        byUnit.forEach((key, shards) -> {
            if (!expected.containsKey(key)) {
                problems.add("unit " + key + " was never written, yet has rows on " + shards.keySet());
                return;
            }
            String named = owner.apply(key);
            if (!shards.keySet().equals(Set.of(named))) {
                problems.add("unit " + key + " has rows on " + shards.keySet() + ", but the map names " + named);
            }
        });
        expected.forEach((key, unit) -> checkUnit(unit, byUnit.getOrDefault(key, Map.of()), problems));
        return problems;
    }

    private static void checkUnit(SoakUnit unit, Map<String, List<SoakTable.Row>> shards, List<String> problems) {
        List<SoakTable.Row> rows = shards.values().stream().flatMap(List::stream).toList();
        List<SoakTable.Row> roots = rows.stream().filter(row -> row.table() == SoakTable.USER).toList();
        if (roots.isEmpty()) {
            if (unit.presence == SoakUnit.Presence.REQUIRED) {
                problems.add("unit " + unit.key + " was acknowledged but its root is on no shard");
            } else if (!rows.isEmpty()) {
                problems.add("unit " + unit.key + " has members but no root: " + identities(rows));
            }
            return;
        }
        if (unit.presence == SoakUnit.Presence.ABSENT) {
            problems.add("unit " + unit.key + " was never written (its creation failed with nothing written), yet is "
                    + "on " + shards.keySet());
        }
        for (SoakTable.Row root : roots) {
            if (!unit.acceptableEmails().contains(root.value())) {
                problems.add("unit " + unit.key + " has email '" + root.value() + "', acknowledged: '" + unit.email
                        + "'" + (unit.possibleEmails.isEmpty() ? "" : " or one of " + unit.possibleEmails));
            }
        }
        Map<String, String> found = new HashMap<>();
        for (SoakTable.Row row : rows) {
            if (row.table() != SoakTable.USER) {
                found.put(row.identity(), row.value());
            }
        }
        unit.members.forEach((member, value) -> {
            if (!found.containsKey(member)) {
                problems.add("member " + member + " of unit " + unit.key + " was acknowledged but is on no shard");
            } else if (!value.equals(found.get(member))) {
                problems.add("member " + member + " of unit " + unit.key + " has '" + found.get(member)
                        + "', written: '" + value + "'");
            }
        });
        found.forEach((member, value) -> {
            if (unit.members.containsKey(member)) {
                return;
            }
            String possible = unit.possibleMembers.get(member);
            if (possible == null) {
                problems.add("member " + member + " of unit " + unit.key + " is on a shard but was "
                        + (unit.goneMembers.contains(member) ? "deleted or rolled back" : "never written"));
            } else if (!possible.equals(value)) {
                problems.add("member " + member + " of unit " + unit.key + " has '" + value + "', attempted: '"
                        + possible + "'");
            }
        });
    }

    private static List<String> identities(List<SoakTable.Row> rows) {
        return rows.stream().map(SoakTable.Row::identity).toList();
    }
}
