package org.atomicshards.hibernate.internal.index;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The statements on the index entries of one shard, in the caller's transaction or each on its own (autocommit). Conditional changes return how many entries they changed,
 * so that a caller racing another knows whether it won.
 */
final class IndexEntries {

    /** One stored entry, with its age on the shard's own clock. */
    record Entry(String digest, String unitKey, String token, long ageMillis) {
    }

    private final Connection connection;
    private final String now;

    IndexEntries(Connection connection) throws SQLException {
        this.connection = connection;
        this.now = IndexTable.now(IndexTable.dialect(connection));
    }

    /** The entries of {@code digest} in {@code index}: at most one in a unique index. */
    List<Entry> read(IndexDefinition index, String digest) throws SQLException {
        return read(index, List.of(digest));
    }

    /** The entries of the {@code digests} in {@code index}. */
    List<Entry> read(IndexDefinition index, Collection<String> digests) throws SQLException {
        List<Entry> entries = new ArrayList<>();
        if (digests.isEmpty()) {
            return entries;
        }
        String sql = "select value_digest, unit_key, claim_token, claimed_at, " + now + " from "
                + IndexTable.of(index).table() + " where index_name = ? and value_digest in ("
                + String.join(", ", java.util.Collections.nCopies(digests.size(), "?")) + ")";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, index.name());
            int position = 2;
            for (String digest : digests) {
                statement.setString(position++, digest);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    entries.add(entry(rs));
                }
            }
        }
        return entries;
    }

    /** Every entry of {@code index} on this shard. */
    List<Entry> readAll(IndexDefinition index) throws SQLException {
        String sql = "select value_digest, unit_key, claim_token, claimed_at, " + now + " from "
                + IndexTable.of(index).table() + " where index_name = ?";
        List<Entry> entries = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, index.name());
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    entries.add(entry(rs));
                }
            }
        }
        return entries;
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        Timestamp claimed = rs.getTimestamp(4);
        Timestamp current = rs.getTimestamp(5);
        return new Entry(rs.getString(1).trim(), rs.getString(2), rs.getString(3).trim(),
                current.getTime() - claimed.getTime());
    }

    /**
     * Inserts a claimed entry.
     *
     * @return false if the entry's key exists already (another writer's entry, or a stale one)
     */
    boolean insert(IndexDefinition index, String digest, int virtualShard, String unitKey, String token)
            throws SQLException {
        String sql = "insert into " + IndexTable.of(index).table() + " (index_name, value_digest, unit_key, "
                + "virtual_shard, claim_token, claimed_at) values (?, ?, ?, ?, ?, " + now + ")";
        // in a transaction, a failed insert must not end it (PostgreSQL refuses every later statement of the transaction)
        Savepoint beforeInsert = connection.getAutoCommit() ? null : connection.setSavepoint();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, index.name());
            statement.setString(2, digest);
            statement.setString(3, unitKey);
            statement.setInt(4, virtualShard);
            statement.setString(5, token);
            statement.executeUpdate();
        } catch (SQLException e) {
            if (isDuplicateKey(e)) {
                if (beforeInsert != null) {
                    connection.rollback(beforeInsert);
                }
                return false;
            }
            throw e;
        }
        if (beforeInsert != null) {
            connection.releaseSavepoint(beforeInsert);
        }
        return true;
    }

    /** Claims the existing entry of {@code unitKey} anew: the token and the claim time change. */
    int reclaim(IndexDefinition index, String digest, String unitKey, String token) throws SQLException {
        return update("update " + IndexTable.of(index).table() + " set claim_token = ?, claimed_at = " + now
                + " where index_name = ? and value_digest = ? and unit_key = ?", token, index.name(), digest, unitKey);
    }

    /** Hands the entry of a unique index from {@code fromKey} to {@code toKey}, if nobody touched it since it was read. */
    int takeOver(IndexDefinition index, String digest, String fromKey, String seenToken, String toKey, String token)
            throws SQLException {
        return update("update " + IndexTable.of(index).table() + " set unit_key = ?, claim_token = ?, claimed_at = "
                + now + " where index_name = ? and value_digest = ? and unit_key = ? and claim_token = ?",
                toKey, token, index.name(), digest, fromKey, seenToken);
    }

    /** Marks the entry as being let go of by the unit of work {@code token} (the claim time stays). */
    int mark(IndexDefinition index, String digest, String unitKey, String token) throws SQLException {
        return update("update " + IndexTable.of(index).table() + " set claim_token = ? where index_name = ? and "
                + "value_digest = ? and unit_key = ?", token, index.name(), digest, unitKey);
    }

    /** Deletes the entry if the unit of work {@code token} was the last to take it or let go of it. */
    int delete(IndexDefinition index, String digest, String unitKey, String token) throws SQLException {
        return update("delete from " + IndexTable.of(index).table() + " where index_name = ? and value_digest = ? "
                + "and unit_key = ? and claim_token = ?", index.name(), digest, unitKey, token);
    }

    private int update(String sql, String... values) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setString(i + 1, values[i]);
            }
            return statement.executeUpdate();
        }
    }

    /** SQLSTATE class 23 (integrity constraint violation): a duplicate primary key on all three databases. */
    static boolean isDuplicateKey(SQLException e) {
        for (SQLException current = e; current != null; current = current.getNextException()) {
            String state = current.getSQLState();
            if (state != null && state.startsWith("23")) {
                return true;
            }
        }
        return false;
    }
}
