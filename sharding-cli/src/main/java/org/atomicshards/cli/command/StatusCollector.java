package org.atomicshards.cli.command;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.cli.internal.CliException;
import org.atomicshards.cli.internal.Cluster;
import org.atomicshards.cli.internal.Errors;
import org.atomicshards.cli.internal.Skew;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.Session;

/**
 * Gathers {@link StatusReport}: the map from the directory, each shard's status from the catalog's shard registry,
 * row counts per entity on each shard (a shard that cannot be read is reported with its error, the others still
 * count), and the resharding journal when the catalog has one. Reads only; writes nothing anywhere.
 */
final class StatusCollector {

    /** The move journal of the resharding protocol (docs/resharding.md, "Where ownership is recorded"). */
    static final String MOVE_JOURNAL = "as_move";
    private static final Set<String> FINISHED_STATES = Set.of("DONE", "ROLLED_BACK", "ABORTED", "CANCELLED");

    private final Cluster cluster;

    StatusCollector(Cluster cluster) {
        this.cluster = cluster;
    }

    StatusReport collect() {
        ShardingConfig config = cluster.runtime().config();
        List<Class<?>> entities = new ArrayList<>();
        cluster.units().forEach(unit -> entities.addAll(Cluster.countedMembers(unit)));
        entities.addAll(cluster.referenceData());

        Map<String, String> registry;
        List<Map<String, Object>> operations;
        try (Connection catalog = catalogConnection(config)) {
            registry = registry(catalog);
            operations = operations(catalog);
        } catch (SQLException e) {
            throw new CliException(ExitCodes.UNAVAILABLE, "Cannot read the shard catalog at "
                    + Redaction.url(config.catalogUrl()) + ": " + e.getMessage(), e);
        }

        List<StatusReport.ShardLine> shards = new ArrayList<>();
        for (ShardId shard : cluster.shards().shards()) {
            Map<String, Long> rows = new LinkedHashMap<>();
            String error = null;
            try (Session session = cluster.shards().openReadOnlySession(shard)) {
                for (Class<?> entity : entities) {
                    rows.put(entity.getName(), session.createQuery(
                            "select count(e) from " + cluster.entityName(entity) + " e", Long.class).getSingleResult());
                }
            } catch (RuntimeException e) {
                rows.clear();
                error = Errors.message(e);
            }
            shards.add(new StatusReport.ShardLine(shard.name(), registry.get(shard.name()),
                    Redaction.url(config.topology().shard(shard).url()),
                    cluster.shards().directory().virtualShardsOf(shard).size(), rows, error));
        }

        List<StatusReport.UnitSpread> units = new ArrayList<>();
        for (UnitRoutingImpl unit : cluster.units()) {
            units.add(spread(unit, shards));
        }
        return new StatusReport(cluster.shards().directory().version(), cluster.shards().directory().virtualShards(),
                Redaction.url(config.catalogUrl()), entities.stream().map(Class::getName).toList(), shards, units,
                cluster.referenceData().stream().map(Class::getName).toList(), operations,
                cluster.shards().schema().versions(), cluster.shards().admin().replicas());
    }

    private static StatusReport.UnitSpread spread(UnitRoutingImpl unit, List<StatusReport.ShardLine> shards) {
        Map<String, Long> unitsPerShard = new LinkedHashMap<>();
        List<Long> unitCounts = new ArrayList<>();
        List<Long> rowCounts = new ArrayList<>();
        for (StatusReport.ShardLine shard : shards) {
            if (shard.error() != null) {
                continue;
            }
            long roots = shard.rows().get(unit.root().getName());
            unitsPerShard.put(shard.id(), roots);
            unitCounts.add(roots);
            rowCounts.add(Cluster.countedMembers(unit).stream().mapToLong(m -> shard.rows().get(m.getName())).sum());
        }
        return new StatusReport.UnitSpread(unit.root().getName(), unit.policy().selection().name(), unitsPerShard,
                unitCounts.isEmpty() ? null : Skew.of(unitCounts.stream().mapToLong(Long::longValue).toArray()),
                rowCounts.isEmpty() ? null : Skew.of(rowCounts.stream().mapToLong(Long::longValue).toArray()));
    }

    private static Connection catalogConnection(ShardingConfig config) throws SQLException {
        Properties properties = new Properties();
        if (config.catalogUser() != null) {
            properties.setProperty("user", config.catalogUser());
        }
        if (config.catalogPassword() != null) {
            properties.setProperty("password", config.catalogPassword());
        }
        Connection connection = DriverManager.getConnection(config.catalogUrl(), properties);
        connection.setReadOnly(true);
        return connection;
    }

    private static Map<String, String> registry(Connection catalog) throws SQLException {
        Map<String, String> registry = new LinkedHashMap<>();
        if (!tableExists(catalog, "as_shard")) {
            return registry;
        }
        try (PreparedStatement ps = catalog.prepareStatement("select shard_id, status from as_shard");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                registry.put(rs.getString(1), rs.getString(2));
            }
        }
        return registry;
    }

    /** The unfinished rows of the move journal, every column; null when the catalog has no journal yet. */
    private static List<Map<String, Object>> operations(Connection catalog) throws SQLException {
        if (!tableExists(catalog, MOVE_JOURNAL)) {
            return null;
        }
        List<Map<String, Object>> open = new ArrayList<>();
        try (PreparedStatement ps = catalog.prepareStatement("select * from " + MOVE_JOURNAL);
             ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    Object value = rs.getObject(c);
                    row.put(meta.getColumnLabel(c).toLowerCase(Locale.ROOT), value == null || value instanceof Number
                            || value instanceof Boolean ? value : value.toString());
                }
                Object state = row.get("state");
                if (state == null || !FINISHED_STATES.contains(state.toString().toUpperCase(Locale.ROOT))) {
                    open.add(row);
                }
            }
        }
        return open;
    }

    static boolean tableExists(Connection connection, String table) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
            try (ResultSet rs = meta.getTables(connection.getCatalog(), null, name, new String[] {"TABLE"})) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }
}
