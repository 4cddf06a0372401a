package org.atomicshards.hibernate.internal.reshard.move;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.internal.reshard.fence.StepGuard;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;
import org.atomicshards.hibernate.internal.routing.StableHash;

/**
 * Plain JDBC over the tables of one unit: scans the keys on a shard, copies the rows of a chunk of units into the
 * target's staging tables (delete then insert, so a re-copy replaces), digests them for verification, promotes
 * staging into the live tables and deletes a unit's rows. Values always travel as statement parameters; only table
 * and column names from the mapping model and the database's own metadata are written into SQL.
 */
public final class RowCopier {

    private final UnitTables unit;
    private final Map<String, List<String>> columns = new HashMap<>();

    RowCopier(UnitTables unit) {
        this.unit = unit;
    }

    UnitTables tables() {
        return unit;
    }

    /** The column names of {@code table}, read from the database once. */
    List<String> columns(Connection connection, String table) throws SQLException {
        List<String> known = columns.get(table);
        if (known != null) {
            return known;
        }
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("select * from " + table + " where 1 = 0");
             ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                names.add(meta.getColumnName(i));
            }
        }
        columns.put(table, List.copyOf(names));
        return columns.get(table);
    }

    /** Every distinct key found in any table of the unit on the connection's shard, as the unit's key type. */
    Set<Object> scanKeys(Connection connection) throws SQLException {
        Set<Object> keys = new java.util.HashSet<>();
        for (UnitTables.Table table : unit.tables()) {
            if (table.owner() != null) {
                continue; // a collection table's rows belong to owners found in the owner's table
            }
            try (PreparedStatement ps = connection.prepareStatement(
                    "select distinct " + table.keyColumn() + " from " + table.name())) {
                ps.setFetchSize(1000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Object raw = rs.getObject(1);
                        if (raw != null) {
                            keys.add(toKey(raw));
                        }
                    }
                }
            }
        }
        return keys;
    }

    /** A key read from a column or from the change log's text, as the unit's key type. */
    Object toKey(Object raw) {
        return typed(unit.unit().keyType(), raw);
    }

    /** {@code raw} (a column's value, or the change log's text) as {@code type}. */
    static Object typed(Class<?> type, Object raw) {
        if (type == Long.class || type == long.class) {
            return raw instanceof Number n ? n.longValue() : Long.valueOf(raw.toString());
        }
        if (type == Integer.class || type == int.class) {
            return raw instanceof Number n ? n.intValue() : Integer.valueOf(raw.toString());
        }
        if (type == Short.class || type == short.class) {
            return raw instanceof Number n ? n.shortValue() : Short.valueOf(raw.toString());
        }
        if (type == Byte.class || type == byte.class) {
            return raw instanceof Number n ? n.byteValue() : Byte.valueOf(raw.toString());
        }
        if (type == BigInteger.class) {
            return raw instanceof BigInteger b ? b : new BigDecimal(raw.toString()).toBigIntegerExact();
        }
        if (type == UUID.class) {
            if (raw instanceof UUID u) {
                return u;
            }
            if (raw instanceof byte[] bytes && bytes.length == 16) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes);
                return new UUID(buffer.getLong(), buffer.getLong());
            }
            return UUID.fromString(raw.toString());
        }
        return raw.toString();
    }

    /**
     * Copies the rows of {@code keys} from {@code source} into the staging tables on {@code target}, in one target
     * transaction; units with no rows left on the source end with none in staging.
     *
     * @return rows copied
     */
    long copy(Connection source, Connection target, ShardSql targetSql, List<Object> keys, StepGuard guard)
            throws SQLException {
        Map<UnitTables.Table, List<Object[]>> rows = new java.util.LinkedHashMap<>();
        for (UnitTables.Table table : unit.tables()) {
            rows.put(table, read(source, false, table, keys, targetSql));
        }
        MoveFaults.at("copy-write");
        long copied = 0;
        boolean autoCommit = target.getAutoCommit();
        target.setAutoCommit(false);
        try {
            guard.check(target);
            // emptied in reverse order first: a collection table's staged rows are found through its owner's
            for (UnitTables.Table table : reversed()) {
                deleteKeys(target, true, table, keys, targetSql);
            }
            for (UnitTables.Table table : unit.tables()) {
                List<Object[]> tableRows = rows.get(table);
                insertStaged(target, table, tableRows);
                copied += tableRows.size();
            }
            target.commit();
        } catch (SQLException | RuntimeException e) {
            target.rollback();
            throw e;
        } finally {
            target.setAutoCommit(autoCommit);
        }
        return copied;
    }

    /**
     * The rows of {@code keys} in {@code table} (live or {@code staging}): its columns, then the unit's key (which a
     * collection table reads from its owner's row).
     */
    private List<Object[]> read(Connection connection, boolean staging, UnitTables.Table table, List<Object> keys,
                                ShardSql sql) throws SQLException {
        List<String> names = columns(connection, table.name());
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("select t." + String.join(", t.", names) + ", "
                + table.keyReference() + " from " + table.from(staging) + " where " + table.keyReference() + " in ("
                + placeholders(keys.size()) + ")")) {
            bind(ps, keys, 1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object[] row = new Object[names.size() + 1];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = materialised(rs.getObject(i + 1));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** LOBs read into memory: they do not outlive the result set. */
    private static Object materialised(Object value) throws SQLException {
        if (value instanceof Blob blob) {
            return blob.getBytes(1, (int) blob.length());
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) clob.length());
        }
        return value;
    }

    private static int deleteKeys(Connection connection, boolean staging, UnitTables.Table table,
                                  Collection<Object> keys, ShardSql sql) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("delete from "
                + (staging ? table.staging() : table.name()) + " where "
                + table.rowsOfKeys(staging, placeholders(keys.size())))) {
            bind(ps, keys, 1, sql);
            return ps.executeUpdate();
        }
    }

    private List<UnitTables.Table> reversed() {
        List<UnitTables.Table> reversed = new ArrayList<>(unit.tables());
        java.util.Collections.reverse(reversed);
        return reversed;
    }

    /**
     * For each key, per table: the row count and an order-independent checksum of the rows' values, on the live
     * tables ({@code staging} false) or the staging tables.
     */
    Map<Object, List<long[]>> digest(Connection connection, ShardSql sql, List<Object> keys, boolean staging)
            throws SQLException {
        Map<Object, List<long[]>> digests = new HashMap<>();
        for (Object key : keys) {
            List<long[]> perTable = new ArrayList<>();
            for (int i = 0; i < unit.tables().size(); i++) {
                perTable.add(new long[2]);
            }
            digests.put(key, perTable);
        }
        for (int t = 0; t < unit.tables().size(); t++) {
            UnitTables.Table table = unit.tables().get(t);
            for (Object[] row : read(connection, staging, table, keys, sql)) {
                long[] digest = digests.get(toKey(row[row.length - 1])).get(t);
                digest[0]++;
                digest[1] += rowHash(row);
            }
        }
        return digests;
    }

    private static long rowHash(Object[] row) {
        StringBuilder text = new StringBuilder();
        for (Object value : row) {
            text.append(canonical(value)).append('\u0001');
        }
        return StableHash.ofBytes(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String canonical(Object value) {
        if (value == null) {
            return "\u0000";
        }
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.stripTrailingZeros().toPlainString();
        }
        if (value instanceof Number number && !(value instanceof Double) && !(value instanceof Float)) {
            return new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
        }
        return value.toString();
    }

    /**
     * Copies the families of {@code ids}, rows of {@code family}'s entity table, from {@code source} into the staging
     * tables on {@code target}, in one target transaction: their staged rows are replaced by those on the source now
     * (none, for a row deleted there).
     *
     * @return rows copied
     */
    long copyRows(Connection source, Connection target, ShardSql targetSql, UnitTables.RowFamily family,
                  List<String> ids, StepGuard guard) throws SQLException {
        List<Object> typed = typedIds(family, ids);
        Map<UnitTables.Table, List<Object[]>> rows = new LinkedHashMap<>();
        for (UnitTables.Table table : familyTables(family)) {
            rows.put(table, readByColumn(source, targetSql, false, table, column(family, table), typed));
        }
        long copied = 0;
        boolean autoCommit = target.getAutoCommit();
        target.setAutoCommit(false);
        try {
            guard.check(target);
            for (UnitTables.Table table : familyTables(family)) {
                try (PreparedStatement ps = target.prepareStatement("delete from " + table.staging() + " where "
                        + column(family, table) + " in (" + placeholders(typed.size()) + ")")) {
                    bind(ps, typed, 1, targetSql);
                    ps.executeUpdate();
                }
            }
            for (Map.Entry<UnitTables.Table, List<Object[]>> entry : rows.entrySet()) {
                insertStaged(target, entry.getKey(), entry.getValue());
                copied += entry.getValue().size();
            }
            target.commit();
        } catch (SQLException | RuntimeException e) {
            target.rollback();
            throw e;
        } finally {
            target.setAutoCommit(autoCommit);
        }
        return copied;
    }

    /**
     * Compares the families of {@code ids} on {@code source} with their staged copy on {@code target}: row count and
     * checksum per table per row.
     *
     * @return the ids whose families differ
     */
    List<String> differingRows(Connection source, ShardSql sourceSql, Connection target, ShardSql targetSql,
                               UnitTables.RowFamily family, List<String> ids) throws SQLException {
        Map<String, long[]> left = familyDigests(source, sourceSql, false, family, ids);
        Map<String, long[]> right = familyDigests(target, targetSql, true, family, ids);
        List<String> differing = new ArrayList<>();
        for (String id : ids) {
            long[] a = left.get(id);
            long[] b = right.get(id);
            if (!Arrays.equals(a, b)) {
                differing.add(id);
            }
        }
        return differing;
    }

    /** Per id: the row count and checksum of each table of the family, in the family's order. */
    private Map<String, long[]> familyDigests(Connection connection, ShardSql sql, boolean staging,
                                              UnitTables.RowFamily family, List<String> ids) throws SQLException {
        List<UnitTables.Table> tables = familyTables(family);
        Map<String, long[]> digests = new HashMap<>();
        for (String id : ids) {
            digests.put(id, new long[2 * tables.size()]);
        }
        List<Object> typed = typedIds(family, ids);
        for (int t = 0; t < tables.size(); t++) {
            UnitTables.Table table = tables.get(t);
            List<String> names = columns(connection, table.name());
            int lookup = indexOf(names, column(family, table));
            for (Object[] row : readByColumn(connection, sql, staging, table, column(family, table), typed)) {
                long[] digest = digests.get(String.valueOf(typed(family.key().type(), row[lookup])));
                if (digest != null) {
                    digest[2 * t]++;
                    digest[2 * t + 1] += rowHash(row);
                }
            }
        }
        return digests;
    }

    private static List<UnitTables.Table> familyTables(UnitTables.RowFamily family) {
        List<UnitTables.Table> tables = new ArrayList<>();
        tables.add(family.entity());
        tables.addAll(family.dependents());
        return tables;
    }

    /** The column a family's table is looked up by: the entity's identifier, or a dependent's foreign key to it. */
    private static String column(UnitTables.RowFamily family, UnitTables.Table table) {
        return table == family.entity() ? family.key().column() : table.lookupColumn();
    }

    private static int indexOf(List<String> names, String column) {
        String bare = column.replace("\"", "").replace("`", "");
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(bare)) {
                return i;
            }
        }
        throw new IllegalStateException("Column " + column + " is not among " + names);
    }

    private static List<Object> typedIds(UnitTables.RowFamily family, List<String> ids) {
        List<Object> typed = new ArrayList<>(ids.size());
        for (String id : ids) {
            typed.add(typed(family.key().type(), id));
        }
        return typed;
    }

    /** The rows of {@code table} (live or {@code staging}) whose {@code column} is one of {@code values}. */
    private List<Object[]> readByColumn(Connection connection, ShardSql sql, boolean staging, UnitTables.Table table,
                                        String column, List<Object> values) throws SQLException {
        List<String> names = columns(connection, table.name());
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("select " + String.join(", ", names) + " from "
                + (staging ? table.staging() : table.name()) + " where " + column + " in ("
                + placeholders(values.size()) + ")")) {
            bind(ps, values, 1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Object[] row = new Object[names.size()];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = materialised(rs.getObject(i + 1));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private void insertStaged(Connection target, UnitTables.Table table, List<Object[]> tableRows)
            throws SQLException {
        if (tableRows.isEmpty()) {
            return;
        }
        List<String> names = columns(target, table.name());
        try (PreparedStatement ps = target.prepareStatement("insert into " + table.staging() + " ("
                + String.join(", ", names) + ") values (" + "?, ".repeat(names.size() - 1) + "?)")) {
            for (Object[] row : tableRows) {
                for (int i = 0; i < names.size(); i++) {
                    ps.setObject(i + 1, row[i]);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** On the target, in the caller's transaction: staging rows into the live tables (FK order), staging emptied. */
    void promote(Connection target) throws SQLException {
        try (Statement statement = target.createStatement()) {
            for (UnitTables.Table table : unit.tables()) {
                String names = String.join(", ", columns(target, table.name()));
                statement.executeUpdate("insert into " + table.name() + " (" + names + ") select " + names + " from "
                        + table.staging());
            }
            for (UnitTables.Table table : unit.tables()) {
                statement.executeUpdate("delete from " + table.staging());
            }
        }
    }

    /** Empties the staging tables on the target (autocommit). */
    void clearStaging(Connection target) throws SQLException {
        try (Statement statement = target.createStatement()) {
            for (UnitTables.Table table : unit.tables()) {
                statement.executeUpdate("delete from " + table.staging());
            }
        }
    }

    void createStaging(Connection target, ShardSql sql) throws SQLException {
        try (Statement statement = target.createStatement()) {
            for (UnitTables.Table table : unit.tables()) {
                statement.execute(sql.createStaging(table.staging(), table.name()));
                statement.execute(sql.indexStaging(table.staging(), table.lookupColumn()));
                UnitTables.RowKey rowKey = unit.rowKeys().get(table.name());
                if (table.owner() == null && rowKey != null && !rowKey.column().equalsIgnoreCase(table.lookupColumn())) {
                    statement.execute(sql.indexStagingRows(table.staging(), rowKey.column()));
                }
            }
        }
    }

    void dropStaging(Connection target) throws SQLException {
        try (Statement statement = target.createStatement()) {
            for (UnitTables.Table table : unit.tables()) {
                statement.execute("drop table if exists " + table.staging());
            }
        }
    }

    /** Deletes every row of {@code keys}, in reverse FK order, in the caller's transaction; returns rows deleted. */
    long delete(Connection connection, ShardSql sql, List<Object> keys) throws SQLException {
        long deleted = 0;
        for (UnitTables.Table table : reversed()) {
            deleted += deleteKeys(connection, false, table, keys, sql);
        }
        return deleted;
    }

    static String placeholders(int count) {
        return "?, ".repeat(Math.max(0, count - 1)) + "?";
    }

    private static void bind(PreparedStatement ps, Collection<Object> keys, int first, ShardSql sql)
            throws SQLException {
        int index = first;
        for (Object key : keys) {
            ps.setObject(index++, sql == ShardSql.MARIADB && key instanceof UUID ? key.toString() : key);
        }
    }
}
