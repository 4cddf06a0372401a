package org.atomicshards.hibernate;

/**
 * Thrown before anything is written when reference data is written through a single-shard session: the copies on
 * the other shards would silently diverge. Write reference data with {@code ShardedSessionFactory.replicate(...)}.
 */
public class UnreplicatedReferenceDataWriteException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public UnreplicatedReferenceDataWriteException(String message) {
        super(message);
    }

    public UnreplicatedReferenceDataWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
