package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which tables of a move's units a source shard can only scan whole to find a unit's rows: those whose lookup column
 * (the key column, or the foreign key to the owner row) does not lead any index. A move reads, compares and deletes
 * rows by that column in chunks of units, so without an index each chunk scans the table and the move grows with the
 * square of the table. PostgreSQL does not index a foreign key by itself; H2 and InnoDB do.
 */
public final class LookupIndexes {

    private LookupIndexes() {
    }

    /** The tables of {@code copiers} on {@code source} lacking such an index, as {@code table(column)}. */
    static List<String> missing(Connection source, List<RowCopier> copiers) throws SQLException {
        DatabaseMetaData meta = source.getMetaData();
        List<String> missing = new ArrayList<>();
        for (RowCopier copier : copiers) {
            for (UnitTables.Table table : copier.tables().tables()) {
                String column = unquoted(table.lookupColumn());
                if (!leadsAnIndex(meta, source, unquoted(table.name()), column)) {
                    missing.add(table.name() + "(" + table.lookupColumn() + ")");
                }
            }
        }
        return missing;
    }

    private static boolean leadsAnIndex(DatabaseMetaData meta, Connection connection, String table, String column)
            throws SQLException {
        // stored names are folded differently: upper case on H2, lower case on PostgreSQL, as written on MariaDB
        for (String name : List.of(table, table.toUpperCase(Locale.ROOT), table.toLowerCase(Locale.ROOT))) {
            boolean found = false;
            try (ResultSet rs = meta.getIndexInfo(connection.getCatalog(), connection.getSchema(), name, false, true)) {
                while (rs.next()) {
                    found = true;
                    if (rs.getShort("ORDINAL_POSITION") == 1 && column.equalsIgnoreCase(rs.getString("COLUMN_NAME"))) {
                        return true;
                    }
                }
            }
            if (found) {
                return false;
            }
        }
        return true; // the table was not found under any spelling: nothing to say about it
    }

    private static String unquoted(String name) {
        return name.replace("\"", "").replace("`", "");
    }
}
