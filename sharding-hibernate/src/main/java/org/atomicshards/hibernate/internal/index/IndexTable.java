package org.atomicshards.hibernate.internal.index;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import org.atomicshards.hibernate.internal.directory.CatalogDialect;

/**
 * The two library-owned tables of index entries on every shard, and the SQL text that differs between databases.
 *
 * <p>{@code atomicshards_index_unique} holds one entry per (index, value digest); {@code atomicshards_index_entry}
 * one per (index, value digest, unit key). Both: {@code unit_key}, the entry's {@code virtual_shard} (so it moves with
 * it), {@code claim_token} (the unit of work that last took or let go of the entry) and {@code claimed_at} (the
 * shard's own clock when it last took it, to tell a claim in flight from an abandoned one). Identifiers are fixed and
 * unquoted; every value is bound.
 */
public enum IndexTable {

    UNIQUE("atomicshards_index_unique", "index_name, value_digest"),
    ENTRY("atomicshards_index_entry", "index_name, value_digest, unit_key");

    private final String table;
    private final String primaryKey;

    IndexTable(String table, String primaryKey) {
        this.table = table;
        this.primaryKey = primaryKey;
    }

    public static IndexTable of(IndexDefinition definition) {
        return definition.unique() ? UNIQUE : ENTRY;
    }

    public String table() {
        return table;
    }

    /** The database's current local time, as {@code claimed_at} stores it. */
    static String now(CatalogDialect dialect) {
        return dialect == CatalogDialect.MARIADB ? "NOW(3)" : "LOCALTIMESTAMP";
    }

    /** Creates both tables on the shard behind {@code connection} (autocommit) unless they exist. */
    public static void create(Connection connection) throws SQLException {
        CatalogDialect dialect = dialect(connection);
        try (Statement statement = connection.createStatement()) {
            for (IndexTable table : values()) {
                statement.execute(table.createTable(dialect));
                statement.execute("create index if not exists " + table.table + "_vs on " + table.table
                        + " (virtual_shard)");
            }
        }
    }

    /** Drops both tables on the shard behind {@code connection}, if they exist. */
    public static void drop(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (IndexTable table : values()) {
                statement.execute("drop table if exists " + table.table);
            }
        }
    }

    static CatalogDialect dialect(Connection connection) throws SQLException {
        java.util.Optional<CatalogDialect> dialect = CatalogDialect.of(connection);
        if (dialect.isEmpty()) {
            throw new SQLException("Indexes are kept on H2, PostgreSQL and MariaDB shards only, not on "
                    + connection.getMetaData().getDatabaseProductName());
        }
        return dialect.get();
    }

    private String createTable(CatalogDialect dialect) {
        String binary = dialect == CatalogDialect.MARIADB ? " character set utf8mb4 collate utf8mb4_bin" : "";
        String time = dialect == CatalogDialect.MARIADB ? "datetime(3)" : "timestamp(3)";
        String engine = dialect == CatalogDialect.MARIADB ? " engine=InnoDB" : "";
        return "create table if not exists " + table + " ("
                + "index_name varchar(" + IndexDefinition.MAX_NAME_LENGTH + ")" + binary + " not null, "
                + "value_digest char(64)" + binary + " not null, "
                + "unit_key varchar(" + IndexValues.MAX_KEY_LENGTH + ")" + binary + " not null, "
                + "virtual_shard integer not null, "
                + "claim_token char(36)" + binary + " not null, "
                + "claimed_at " + time + " not null, "
                + "primary key (" + primaryKey + "))" + engine;
    }
}
