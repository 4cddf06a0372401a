package org.atomicshards.hibernate;

import java.util.Optional;

/**
 * A shard's database connection died while in use: the server ended it (restart, {@code pg_terminate_backend},
 * {@code KILL}), the network cut it, or the driver gave it up after its socket timeout on a silent network. Thrown
 * by the statement that met the dead connection, never turned into a missing row or a rollback error; names the
 * shard when the failure is known to belong to one (always from a unit of work).
 *
 * <p>{@link #isCommitOutcomeUnknown()} tells whether the connection died during the commit. If not, nothing of the
 * unit of work was committed and running the whole unit again is safe: the shard's pool has already retired its
 * other connections, so the retry gets a freshly opened one. Atomic Shards does not retry by itself (the work may
 * have done things outside the database).
 */
public class ShardConnectionLostException extends ShardUnavailableException {

    private static final long serialVersionUID = 1L;

    private final transient ShardId shard;
    private final boolean commitOutcomeUnknown;

    public ShardConnectionLostException(String message, ShardId shard, boolean commitOutcomeUnknown,
                                        Throwable cause) {
        super(message, cause);
        this.shard = shard;
        this.commitOutcomeUnknown = commitOutcomeUnknown;
    }

    /** The shard whose connection died, when known. */
    public Optional<ShardId> shard() {
        return Optional.ofNullable(shard);
    }

    /** Whether the connection died during the commit, so that the unit of work may or may not have been committed. */
    public boolean isCommitOutcomeUnknown() {
        return commitOutcomeUnknown;
    }
}
