package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/**
 * The adversarial suite's auditor: reads every shard database and the catalog over plain JDBC, whatever any instance
 * believes, and lists every way the end state breaks the guarantee: a unit missing, on another shard than the one the
 * catalog's latest map names, on two shards or twice on one; a unit without its last acknowledged version (or a later
 * one of unknown outcome); an acknowledged status missing, doubled or astray, a status nobody wrote; staging tables
 * left behind; a shard's ownership rows disagreeing with the map or not {@code OWNED}; change-log rows or arms left on a
 * shard; an operation of the journal not finished.
 */
final class ReshardingAuditor {

    private final ShardDatabases dbs;
    private final String catalogUrl;

    ReshardingAuditor(ShardDatabases dbs, String catalogUrl) {
        this.dbs = dbs;
        this.catalogUrl = catalogUrl;
    }

    /** The problems found; empty if the end state keeps every promise. */
    List<String> problems(VersionLedger ledger) {
        List<String> problems = new ArrayList<>();
        try {
            Map<Integer, String> map = latestMap(problems);
            Set<String> inTopology = new TreeSet<>(map.values());
            Map<Long, List<String>> userShards = new TreeMap<>();
            Map<Long, String> emails = new HashMap<>();
            Map<Long, Map<String, List<String>>> statuses = new HashMap<>();
            for (ShardDatabase shard : dbs.shards()) {
                try (Connection c = dbs.connect(shard.id())) {
                    if (!hasTable(c, "app_user")) {
                        continue; // a database no instance ever used
                    }
                    readUsers(c, shard.id(), userShards, emails, problems);
                    readStatuses(c, shard.id(), statuses);
                    checkShardState(c, shard.id(), map, problems);
                }
                if (!inTopology.contains(shard.id()) && userShards.values().stream().anyMatch(s -> s.contains(shard.id()))) {
                    problems.add("shard " + shard.id() + " owns no virtual shard, yet holds users");
                }
            }
            ledger.units().forEach((key, unit) -> checkUnit(unit, map.get(unit.virtualShard),
                    userShards.getOrDefault(key, List.of()), emails.get(key),
                    statuses.getOrDefault(key, Map.of()), problems));
            userShards.keySet().stream().filter(key -> ledger.unit(key) == null)
                    .forEach(key -> problems.add("user " + key + " was never written, yet is on " + userShards.get(key)));
            statuses.keySet().stream().filter(key -> ledger.unit(key) == null)
                    .forEach(key -> problems.add("statuses of user " + key + ", never written, are on "
                            + statuses.get(key).keySet()));
            checkJournal(problems);
        } catch (SQLException e) {
            throw new IllegalStateException("The auditor could not read the databases", e);
        }
        return problems;
    }

    private static void checkUnit(VersionLedger.Unit unit, String owner, List<String> shards, String email,
            Map<String, List<String>> statuses, List<String> problems) {
        if (shards.isEmpty()) {
            problems.add(unit + " is on no shard");
            return;
        }
        if (!shards.equals(List.of(owner))) {
            problems.add(unit + " is on " + shards + ", but the map names " + owner);
        }
        long version = VersionLedger.version(email);
        if (!unit.mayHold(version)) {
            problems.add(unit + " holds '" + email + "'" + (version < unit.acknowledged()
                    ? ": an acknowledged write was lost" : ""));
        }
        Map<String, String> shardOf = new HashMap<>();
        statuses.forEach((shard, texts) -> {
            if (!shard.equals(owner)) {
                problems.add(unit + " has statuses on " + shard + ", but the map names " + owner + ": " + texts);
            }
            for (String text : texts) {
                if (shardOf.put(text, shard) != null) {
                    problems.add(unit + " has status '" + text + "' twice");
                }
            }
        });
        unit.statuses.stream().filter(text -> !shardOf.containsKey(text))
                .forEach(text -> problems.add(unit + " lost its acknowledged status '" + text + "'"));
        shardOf.keySet().stream().filter(text -> !text.equals("seeded") && !unit.statuses.contains(text)
                        && !unit.possibleStatuses.contains(text))
                .forEach(text -> problems.add(unit + " has status '" + text + "', which no write of it made"));
        if (!shardOf.containsKey("seeded")) {
            problems.add(unit + " lost the status it was seeded with");
        }
    }

    /** The catalog's latest map: virtual shard to shard. */
    private Map<Integer, String> latestMap(List<String> problems) throws SQLException {
        Map<Integer, String> map = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(catalogUrl);
             PreparedStatement ps = c.prepareStatement("select virtual_shard, shard_id from as_virtual_shard "
                     + "where version = (select max(version) from as_map_version)");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (map.put(rs.getInt(1), rs.getString(2)) != null) {
                    problems.add("the latest map names two owners for virtual shard " + rs.getInt(1));
                }
            }
        }
        return map;
    }

    private static void readUsers(Connection c, String shard, Map<Long, List<String>> userShards,
            Map<Long, String> emails, List<String> problems) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select id, email from app_user order by id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<String> on = userShards.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>());
                on.add(shard);
                String previous = emails.put(rs.getLong(1), rs.getString(2));
                if (previous != null && !previous.equals(rs.getString(2))) {
                    problems.add("user " + rs.getLong(1) + " holds '" + previous + "' and '" + rs.getString(2)
                            + "' on " + on);
                }
            }
        }
    }

    private static void readStatuses(Connection c, String shard, Map<Long, Map<String, List<String>>> statuses)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select user_id, text from Status order by user_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                statuses.computeIfAbsent(rs.getLong(1), k -> new TreeMap<>())
                        .computeIfAbsent(shard, k -> new ArrayList<>()).add(rs.getString(2));
            }
        }
    }

    /** The shard's own records: what it claims, its change log, its arms and its staging tables. */
    private void checkShardState(Connection c, String shard, Map<Integer, String> map, List<String> problems)
            throws SQLException {
        Map<Integer, String> claims = new TreeMap<>();
        if (hasTable(c, "as_ownership")) {
            try (PreparedStatement ps = c.prepareStatement("select bucket, state from as_ownership");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    claims.put(rs.getInt(1), rs.getString(2));
                }
            }
        }
        Set<Integer> named = new TreeSet<>();
        map.forEach((bucket, owner) -> {
            if (owner.equals(shard)) {
                named.add(bucket);
            }
        });
        if (!claims.keySet().equals(named)) {
            problems.add("shard " + shard + " claims virtual shards " + claims.keySet() + ", the map gives it "
                    + named);
        }
        claims.forEach((bucket, state) -> {
            if (!state.equals("OWNED")) {
                problems.add("shard " + shard + " left virtual shard " + bucket + " " + state);
            }
        });
        for (String table : List.of("as_moved_change", "as_fence_arm", "as_move_run")) {
            if (hasTable(c, table)) {
                long rows = count(c, "select count(*) from " + table);
                if (rows > 0) {
                    problems.add("shard " + shard + " has " + rows + " rows left in " + table);
                }
            }
        }
        List<String> staging = stagingTables(c);
        if (!staging.isEmpty()) {
            problems.add("shard " + shard + " has staging tables left: " + staging);
        }
    }

    private void checkJournal(List<String> problems) throws SQLException {
        try (Connection c = DriverManager.getConnection(catalogUrl)) {
            try (PreparedStatement ps = c.prepareStatement(
                    "select move_id, kind, state, owner_id from as_move where state <> 'DONE' and state <> 'ABORTED'");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    problems.add("the journal holds operation " + rs.getString(1) + " (" + rs.getString(2)
                            + ") unfinished at " + rs.getString(3) + ", owner " + rs.getString(4));
                }
            }
            long reserved = count(c, "select count(*) from as_move_bucket");
            if (reserved > 0) {
                problems.add("the journal still reserves " + reserved + " virtual shards");
            }
        }
    }

    /** The names of the tables of this database whose name starts with {@code as_in_} (a move's staging). */
    private List<String> stagingTables(Connection c) throws SQLException {
        String schema = switch (dbs.kind()) {
            case H2 -> "table_schema = 'PUBLIC'";
            case POSTGRESQL -> "table_schema = current_schema()";
            case MARIADB -> "table_schema = database()";
        };
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select table_name from information_schema.tables where "
                + schema + " and lower(table_name) like 'as!_in!_%' escape '!'");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static boolean hasTable(Connection c, String table) throws SQLException {
        for (String name : List.of(table, table.toUpperCase(java.util.Locale.ROOT))) {
            try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), null, name, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
