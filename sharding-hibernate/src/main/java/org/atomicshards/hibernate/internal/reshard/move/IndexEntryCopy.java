package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.internal.directory.CatalogSchema;
import org.atomicshards.hibernate.internal.index.IndexTable;

/**
 * Moves the entries of indexes with their virtual shards: an entry lives on the shard owning its value's virtual shard
 * ({@code virtual_shard}), whatever unit it names. Copied at the promotion, when no entry of the batch can change: the
 * source's claims are switched away (writers with the old map are turned away there) and the target's are not yet
 * promoted (writers with the new map wait); deleted from the source by the release. Both in the transaction of their
 * step, so a look-up that finds the virtual shard claimed after reading finds its entries.
 */
final class IndexEntryCopy {

    private static final String COLUMNS = "index_name, value_digest, unit_key, virtual_shard, claim_token, claimed_at";

    private IndexEntryCopy() {
    }

    /** The entries of {@code virtualShards} on {@code source}, by table; empty when it keeps no index. */
    static Map<IndexTable, List<Object[]>> read(Connection source, Collection<Integer> virtualShards)
            throws SQLException {
        Map<IndexTable, List<Object[]>> rows = new LinkedHashMap<>();
        if (virtualShards.isEmpty()) {
            return rows;
        }
        for (IndexTable table : IndexTable.values()) {
            if (!CatalogSchema.tableExists(source, table.table())) {
                continue;
            }
            List<Object[]> read = new ArrayList<>();
            try (PreparedStatement ps = source.prepareStatement("select " + COLUMNS + " from " + table.table()
                    + " where virtual_shard in (" + RowCopier.placeholders(virtualShards.size()) + ")")) {
                bind(ps, virtualShards);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        read.add(new Object[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                                rs.getString(5), rs.getTimestamp(6)});
                    }
                }
            }
            rows.put(table, read);
        }
        return rows;
    }

    /** Creates the entry tables on {@code target} if the source keeps any (autocommit: DDL, before the step). */
    static void prepare(Connection target, Map<IndexTable, List<Object[]>> rows) throws SQLException {
        if (!rows.isEmpty()) {
            IndexTable.create(target);
        }
    }

    /** In the caller's transaction on the target: its entries of {@code virtualShards} replaced by {@code rows}. */
    static void replace(Connection target, Collection<Integer> virtualShards, Map<IndexTable, List<Object[]>> rows)
            throws SQLException {
        for (Map.Entry<IndexTable, List<Object[]>> entry : rows.entrySet()) {
            String table = entry.getKey().table();
            delete(target, table, virtualShards);
            if (entry.getValue().isEmpty()) {
                continue;
            }
            try (PreparedStatement ps = target.prepareStatement("insert into " + table + " (" + COLUMNS
                    + ") values (?, ?, ?, ?, ?, ?)")) {
                for (Object[] row : entry.getValue()) {
                    for (int i = 0; i < row.length; i++) {
                        ps.setObject(i + 1, row[i]);
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
    }

    /** In the caller's transaction on the source: its entries of {@code virtualShards} deleted. */
    static void release(Connection source, Collection<Integer> virtualShards) throws SQLException {
        if (virtualShards.isEmpty()) {
            return;
        }
        for (IndexTable table : IndexTable.values()) {
            if (CatalogSchema.tableExists(source, table.table())) {
                delete(source, table.table(), virtualShards);
            }
        }
    }

    private static void delete(Connection connection, String table, Collection<Integer> virtualShards)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("delete from " + table + " where virtual_shard in ("
                + RowCopier.placeholders(virtualShards.size()) + ")")) {
            bind(ps, virtualShards);
            ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, Collection<Integer> values) throws SQLException {
        int position = 1;
        for (int value : values) {
            ps.setInt(position++, value);
        }
    }
}
