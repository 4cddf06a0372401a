package org.atomicshards.hibernate.internal.reshard.fence;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a mover's transaction on a shard runs first, before it changes anything there: the check that its run still
 * holds the operation on that shard (a move's run token, read with a lock held until the transaction ends).
 */
@FunctionalInterface
public interface StepGuard {

    /** No check: for steps any instance may take at any time (they are idempotent and safe beside the run). */
    StepGuard NONE = connection -> {
    };

    /**
     * Returns if the transaction on {@code connection} may go on; throws (and the caller rolls back) if it may not.
     */
    void check(Connection connection) throws SQLException;
}
