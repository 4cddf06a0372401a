package org.atomicshards.cli.command;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** The rows of a table as a multiset of their text forms, so that two shards' copies can be compared. */
final class ReferenceRows {

    private ReferenceRows() {
    }

    /** Each row (all columns, as text; binary values as their bytes) with the number of times it occurs. */
    static Map<String, Integer> read(Connection connection, String sql) throws SQLException {
        Map<String, Integer> rows = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            int columns = meta.getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int c = 1; c <= columns; c++) {
                    Object value = rs.getObject(c);
                    row.append(c == 1 ? "" : "|").append(value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value));
                }
                rows.merge(row.toString(), 1, Integer::sum);
            }
        }
        return rows;
    }

    /** How many rows of {@code rows} {@code other} lacks (counting duplicates). */
    static int missingFrom(Map<String, Integer> rows, Map<String, Integer> other) {
        int missing = 0;
        for (Map.Entry<String, Integer> row : rows.entrySet()) {
            missing += Math.max(0, row.getValue() - other.getOrDefault(row.getKey(), 0));
        }
        return missing;
    }
}
