package org.atomicshards.hibernate.internal.schema;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A shard's identifiers as its database stores them, read from JDBC metadata: mapped names resolved to the stored
 * form (quoted ones as written, the others in the database's case), columns, primary keys and indexes. Reads only.
 */
final class LiveNames {

    /** A column as the database's metadata describes it. */
    record Column(boolean nullable, boolean generated) {
    }

    private final DatabaseMetaData metadata;
    private final String catalog;
    private final String schema;

    LiveNames(DatabaseMetaData metadata, String catalog, String schema) {
        this.metadata = metadata;
        this.catalog = catalog;
        this.schema = schema;
    }

    /** A mapped identifier as stored: quoted ones as written, the others in the database's case. */
    String stored(String identifier) throws SQLException {
        String stripped = identifier.strip();
        if (stripped.length() > 1 && "\"`[".indexOf(stripped.charAt(0)) >= 0) {
            return stripped.substring(1, stripped.length() - 1);
        }
        if (metadata.storesUpperCaseIdentifiers()) {
            return stripped.toUpperCase(Locale.ROOT);
        }
        if (metadata.storesLowerCaseIdentifiers()) {
            return stripped.toLowerCase(Locale.ROOT);
        }
        return stripped;
    }

    Column column(String table, String column) throws SQLException {
        try (ResultSet rs = metadata.getColumns(catalog, schema, stored(table), stored(column))) {
            if (!rs.next()) {
                return null;
            }
            return new Column(!"NO".equals(rs.getString("IS_NULLABLE")),
                    "YES".equals(rs.getString("IS_AUTOINCREMENT")));
        }
    }

    /**
     * The SQL type of a stored column as its database names it, with the length of a character type: what a new
     * column holding the same values is declared as.
     *
     * @return null if the column does not exist
     */
    String type(String table, String column) throws SQLException {
        try (ResultSet rs = metadata.getColumns(catalog, schema, stored(table), stored(column))) {
            if (!rs.next()) {
                return null;
            }
            String name = rs.getString("TYPE_NAME");
            int jdbcType = rs.getInt("DATA_TYPE");
            boolean sized = jdbcType == Types.VARCHAR || jdbcType == Types.CHAR || jdbcType == Types.NVARCHAR
                    || jdbcType == Types.NCHAR;
            return sized && !name.contains("(") ? name + "(" + rs.getInt("COLUMN_SIZE") + ")" : name;
        }
    }

    /** Whether a stored column holds integers (SMALLINT, INTEGER, BIGINT, or NUMERIC without a fraction). */
    boolean integral(String table, String column) throws SQLException {
        try (ResultSet rs = metadata.getColumns(catalog, schema, stored(table), stored(column))) {
            if (!rs.next()) {
                return false;
            }
            int jdbcType = rs.getInt("DATA_TYPE");
            return jdbcType == Types.TINYINT || jdbcType == Types.SMALLINT || jdbcType == Types.INTEGER
                    || jdbcType == Types.BIGINT
                    || ((jdbcType == Types.NUMERIC || jdbcType == Types.DECIMAL) && rs.getInt("DECIMAL_DIGITS") == 0);
        }
    }

    /** The stored names of the primary key's columns, in key order; empty without a primary key. */
    List<String> primaryKey(String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        List<Short> positions = new ArrayList<>();
        try (ResultSet rs = metadata.getPrimaryKeys(catalog, schema, stored(table))) {
            while (rs.next()) {
                short position = rs.getShort("KEY_SEQ");
                int at = 0;
                while (at < positions.size() && positions.get(at) < position) {
                    at++;
                }
                positions.add(at, position);
                columns.add(at, rs.getString("COLUMN_NAME"));
            }
        }
        return columns;
    }

    boolean indexLeadsWith(String table, String column) throws SQLException {
        String wanted = stored(column);
        try (ResultSet rs = metadata.getIndexInfo(catalog, schema, stored(table), false, true)) {
            while (rs.next()) {
                if (rs.getShort("ORDINAL_POSITION") == 1 && wanted.equalsIgnoreCase(rs.getString("COLUMN_NAME"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
