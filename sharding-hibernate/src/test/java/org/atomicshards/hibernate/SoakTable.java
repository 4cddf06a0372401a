package org.atomicshards.hibernate;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The tables of the seed model's {@code User} unit as the soak test reads them over plain JDBC: the root
 * {@code app_user} and its members {@code Status} and {@code Photo}, each row reduced to its id, the key of the unit it
 * belongs to and one value column.
 */
enum SoakTable {
    USER("app_user", "id", "email"),
    STATUS("Status", "user_id", "text"),
    PHOTO("Photo", "user_id", "blobUrl");

    private final String table;
    private final String keyColumn;
    private final String valueColumn;

    SoakTable(String table, String keyColumn, String valueColumn) {
        this.table = table;
        this.keyColumn = keyColumn;
        this.valueColumn = valueColumn;
    }

    /** One row: {@code id} as text (UUIDs in their canonical form), {@code rawId} as the driver returned it. */
    record Row(SoakTable table, Object rawId, String id, long unitKey, String value) {

        /** Identifies the row across shards: the table and its id. */
        String identity() {
            return table.name() + ":" + id;
        }
    }

    /** The rows whose unit key lies in {@code [from, to]}, on the database behind {@code connection}. */
    List<Row> read(Connection connection, long from, long to) throws SQLException {
        String sql = "select id, " + keyColumn + ", " + valueColumn + " from " + table + " where " + keyColumn
                + " between ? and ?";
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setLong(1, from);
            ps.setLong(2, to);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object rawId = rs.getObject(1);
                    rows.add(new Row(this, rawId, idText(rawId), rs.getLong(2), rs.getString(3)));
                }
            }
        }
        return rows;
    }

    /** Every row of this table. */
    List<Row> readAll(Connection connection) throws SQLException {
        return read(connection, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** Inserts {@code rows} (of this table) as they are, ids included. */
    void insert(Connection connection, List<Row> rows) throws SQLException {
        boolean keyIsId = keyColumn.equals("id");
        String sql = "insert into " + table + " (id, " + (keyIsId ? "" : keyColumn + ", ") + valueColumn
                + ") values (?, ?" + (keyIsId ? ")" : ", ?)");
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (Row row : rows) {
                ps.setObject(1, row.rawId());
                if (!keyIsId) {
                    ps.setLong(2, row.unitKey());
                }
                ps.setString(keyIsId ? 2 : 3, row.value());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Deletes the row with this id; returns how many rows went. */
    int delete(Connection connection, Row row) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("delete from " + table + " where id = ?")) {
            ps.setObject(1, row.rawId());
            return ps.executeUpdate();
        }
    }

    /** Sets the value column of the row with this id. */
    int update(Connection connection, Row row, String value) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "update " + table + " set " + valueColumn + " = ? where id = ?")) {
            ps.setString(1, value);
            ps.setObject(2, row.rawId());
            return ps.executeUpdate();
        }
    }

    /** The id as the soak ledger records it: a UUID in canonical form whatever the driver returns, else as text. */
    static String idText(Object rawId) {
        if (rawId instanceof byte[] bytes && bytes.length == 16) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            return new UUID(buffer.getLong(), buffer.getLong()).toString();
        }
        return String.valueOf(rawId);
    }
}
