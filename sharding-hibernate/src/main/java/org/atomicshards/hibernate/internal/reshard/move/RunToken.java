package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.reshard.fence.StepGuard;
import org.atomicshards.hibernate.internal.reshard.journal.OperationLost;

/**
 * The fencing token of a move's run on the shards it changes ({@code as_move_run}: one row per operation). A run writes
 * its token on every shard of its operation before its first step there ({@link #adopt}); every transaction in which it
 * then changes a shard reads the token first, locking its row until the transaction ends ({@link #check}), and stops
 * with {@link OperationLost} if another run's token stands there or the row is gone (the operation ended).
 *
 * <p>A later run's {@code adopt} waits for a transaction of the earlier run in flight, and the later run reads the
 * shard's state only after it: so once it adopted, nothing the earlier run does can change that shard any more, even if
 * the earlier run was paused inside a step after it last found its lease held. The journal fences the same runs for the
 * catalog; this fences them for the shards.
 */
public final class RunToken implements StepGuard {

    private final String moveId;
    private final String token;

    RunToken(String moveId, String token) {
        this.moveId = moveId;
        this.token = token;
    }

    /**
     * Writes this run's token on the shard of {@code connection}, in a transaction of its own: waits for the
     * transaction of an earlier run that holds the row, then takes the operation there.
     */
    void adopt(Connection connection) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                LocalTransaction.run(connection, () -> {
                    if (update(connection) == 0) {
                        try (PreparedStatement ps = connection.prepareStatement(
                                "insert into as_move_run (operation_id, token) values (?, ?)")) {
                            ps.setString(1, moveId);
                            ps.setString(2, token);
                            ps.executeUpdate();
                        }
                    }
                });
                return;
            } catch (SQLException e) {
                if (attempt >= 3 || !Catalog.isDuplicateKey(e)) {
                    throw e; // a second insert of the row can only be a run that adopted at the same moment
                }
            }
        }
    }

    private int update(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "update as_move_run set token = ? where operation_id = ?")) {
            ps.setString(1, token);
            ps.setString(2, moveId);
            return ps.executeUpdate();
        }
    }

    /**
     * In the caller's transaction, before it changes anything on the shard: returns if this run's token stands there,
     * and keeps the row locked until the transaction ends, so that no later run adopts the shard before it commits.
     *
     * @throws OperationLost if another run adopted the shard, or the operation ended
     */
    @Override
    public void check(Connection connection) throws SQLException {
        String standing;
        try (PreparedStatement ps = connection.prepareStatement(
                "select token from as_move_run where operation_id = ? for update")) {
            ps.setString(1, moveId);
            try (ResultSet rs = ps.executeQuery()) {
                standing = rs.next() ? rs.getString(1) : null;
            }
        }
        if (!token.equals(standing)) {
            throw new OperationLost(moveId, token, standing == null ? "the operation ended"
                    : "another run (" + standing + ") took it over on the shard");
        }
    }

    /** Removes the operation's token from the shard of {@code connection}, in a transaction of its own: it ended. */
    static void forget(Connection connection, String moveId) throws SQLException {
        LocalTransaction.run(connection, () -> {
            try (PreparedStatement ps = connection.prepareStatement(
                    "delete from as_move_run where operation_id = ?")) {
                ps.setString(1, moveId);
                ps.executeUpdate();
            }
        });
    }
}
