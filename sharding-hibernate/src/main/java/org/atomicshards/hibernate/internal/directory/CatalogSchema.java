package org.atomicshards.hibernate.internal.directory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.CatalogException;

/**
 * The catalog's versioned schema: the scripts shipped in the jar (one folder per {@link CatalogDialect}), the tables
 * and columns each version adds, and the two boot actions: {@link #migrate} (create or upgrade, run under the
 * catalog lock) and {@link #validate} (no DDL). Every script records its version in {@code as_schema_version}
 * itself, so applying the scripts with Flyway or Liquibase leaves the same record as the library does.
 */
public final class CatalogSchema {

    /** One script and what it adds. */
    record Script(int version, String fileName, List<Table> tables) {
    }

    /** One table a script creates, with the columns the library reads and writes. */
    record Table(String name, List<String> columns) {
    }

    static final String VERSION_TABLE = "as_schema_version";

    /** The scripts in version order; the last is the version this library writes. */
    static final List<Script> SCRIPTS = List.of(
            new Script(1, "V1__catalog.sql", List.of(
                    new Table(VERSION_TABLE, List.of("version", "description", "installed_at")),
                    new Table("as_map_version", List.of("version", "virtual_shards", "created_at", "note")),
                    new Table("as_virtual_shard", List.of("version", "virtual_shard", "shard_id", "status")),
                    new Table("as_placement", List.of("unit_name", "unit_key", "virtual_shard")),
                    new Table("as_ring_member", List.of("unit_name", "shard_id")),
                    new Table("as_id_block", List.of("block_name", "next_value")),
                    new Table("as_operation_log", List.of("at_time", "operation", "detail")))),
            new Script(2, "V2__shard_registry.sql", List.of(
                    new Table("as_shard", List.of("shard_id", "status", "registered_at")))),
            new Script(3, "V3__shard_topology.sql", List.of(
                    new Table("as_shard", List.of("url", "origin")))),
            new Script(4, "V4__move_journal.sql", List.of(
                    new Table("as_move", List.of("move_id", "kind", "target_shard", "buckets", "state", "batch_no",
                            "checkpoint", "owner_id", "lease_until", "error", "units_copied", "rows_copied",
                            "started_at", "updated_at")),
                    new Table("as_move_bucket", List.of("bucket", "move_id", "source_shard", "batch_no")))));

    /** The schema version this library needs and writes. */
    static final int CURRENT_VERSION = SCRIPTS.get(SCRIPTS.size() - 1).version();

    private static final Pattern CREATE_TABLE =
            Pattern.compile("(?is)^create\\s+table\\s+(if\\s+not\\s+exists\\s+)?([a-z_][a-z0-9_]*)\\b.*");

    private final CatalogDialect dialect;
    private final String catalogName;

    CatalogSchema(CatalogDialect dialect, String catalogName) {
        this.dialect = dialect;
        this.catalogName = catalogName;
    }

    /**
     * Brings the catalog to {@link #CURRENT_VERSION}: runs V1 on an empty catalog, adopts a catalog created by a
     * release without versioning (its tables are kept, the missing ones created, version 1 recorded), then runs
     * every later script the catalog lacks. A catalog of a newer version is left as it is. Must run under the
     * catalog lock; each script runs in one transaction (atomic where the database has transactional DDL).
     *
     * @return the versions applied, in order
     */
    List<Integer> migrate(Connection connection) throws SQLException {
        List<Integer> applied = new ArrayList<>();
        int current = installedVersion(connection);
        for (Script script : SCRIPTS) {
            if (script.version() > current) {
                boolean adopt = script.version() == 1 && tableExists(connection, "as_map_version");
                run(connection, script, adopt);
                applied.add(script.version());
            }
        }
        return applied;
    }

    /**
     * Checks, without DDL, that the catalog has at least {@link #CURRENT_VERSION} and every table and column this
     * library uses.
     *
     * @throws CatalogException naming the first missing table or column, or the missing version, and the script
     */
    void validate(Connection connection) throws SQLException {
        for (Script script : SCRIPTS) {
            for (Table table : script.tables()) {
                Set<String> columns = columns(connection, table.name());
                if (columns.isEmpty()) {
                    throw new CatalogException("The catalog at " + catalogName + " lacks table " + table.name()
                            + " (schema version " + script.version() + "). Fix: run " + dialect.resource(script.fileName())
                            + " from the atomic-shards jar (e.g. as a Flyway or Liquibase migration), or let the "
                            + "library create it with atomicshards.catalog.schema=create");
                }
                for (String column : table.columns()) {
                    if (!columns.contains(column)) {
                        throw new CatalogException("The catalog at " + catalogName + " lacks column " + table.name()
                                + "." + column + " (schema version " + script.version() + "). Fix: run "
                                + dialect.resource(script.fileName()) + " from the atomic-shards jar, or repair the table");
                    }
                }
            }
        }
        if (dialect == CatalogDialect.H2 && columns(connection, DatabaseLock.H2_LOCK_TABLE).isEmpty()) {
            throw new CatalogException("The catalog at " + catalogName + " lacks table " + DatabaseLock.H2_LOCK_TABLE
                    + " (schema version 1). Fix: run " + dialect.resource(SCRIPTS.get(0).fileName())
                    + " from the atomic-shards jar");
        }
        int installed = installedVersion(connection);
        if (installed < CURRENT_VERSION) {
            Script missing = SCRIPTS.get(installed);
            throw new CatalogException("The catalog at " + catalogName + " records schema version " + installed
                    + " in " + VERSION_TABLE + " but this library needs version " + CURRENT_VERSION + ". Fix: run "
                    + dialect.resource(missing.fileName()) + " (and any later script) from the atomic-shards jar, or "
                    + "let the library upgrade it with atomicshards.catalog.schema=create");
        }
    }

    /** The highest version recorded in {@code as_schema_version}; 0 if the table is missing or empty. */
    static int installedVersion(Connection connection) throws SQLException {
        if (!tableExists(connection, VERSION_TABLE)) {
            return 0;
        }
        try (PreparedStatement ps = connection.prepareStatement("select max(version) from " + VERSION_TABLE);
             ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private void run(Connection connection, Script script, boolean adopt) throws SQLException {
        List<String> statements = statements(dialect, script.fileName());
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                Matcher create = CREATE_TABLE.matcher(sql);
                if (adopt && create.matches() && tableExists(connection, create.group(2))) {
                    continue; // created by the release before versioning, with the same definition
                }
                statement.execute(sql);
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw new CatalogException("Cannot apply " + dialect.resource(script.fileName()) + " to the catalog at "
                    + catalogName + ": " + e.getMessage(), e);
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /** The statements of one shipped script: comments dropped, split at a {@code ;} that ends a line. */
    static List<String> statements(CatalogDialect dialect, String fileName) {
        String resource = dialect.resource(fileName);
        String text;
        try (InputStream in = CatalogSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new CatalogException("The catalog script " + resource + " is missing from the class path");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CatalogException("Cannot read the catalog script " + resource + ": " + e.getMessage(), e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(trimmed, 0, trimmed.length() - 1);
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(trimmed).append(' ');
            }
        }
        if (!current.toString().isBlank()) {
            throw new CatalogException("The catalog script " + resource + " ends without ';'");
        }
        return statements;
    }

    /**
     * Whether {@code table} exists in the connection's current catalog and schema (a same-named table in another
     * schema is not ours: the directory's statements use unqualified names, which resolve to the current schema).
     */
    public static boolean tableExists(Connection connection, String table) throws SQLException {
        return !columns(connection, table).isEmpty();
    }

    /** The lower-case column names of {@code table} in the current catalog and schema; empty if there is no table. */
    static Set<String> columns(Connection connection, String table) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        String escape = metaData.getSearchStringEscape();
        String schema = connection.getSchema();
        String schemaPattern = schema == null ? null : likeLiteral(schema, escape);
        Set<String> columns = new HashSet<>();
        for (String candidate : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
            try (ResultSet rs = metaData.getColumns(connection.getCatalog(), schemaPattern,
                    likeLiteral(candidate, escape), null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
            if (!columns.isEmpty()) {
                return columns;
            }
        }
        return columns;
    }

    /** {@code name} as a metadata search pattern matching only itself ({@code _} and {@code %} escaped). */
    private static String likeLiteral(String name, String escape) {
        if (escape == null || escape.isEmpty()) {
            return name;
        }
        return name.replace(escape, escape + escape).replace("_", escape + "_").replace("%", escape + "%");
    }
}
