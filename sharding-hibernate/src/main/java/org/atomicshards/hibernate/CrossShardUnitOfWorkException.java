package org.atomicshards.hibernate;

/**
 * Thrown when a unit of work, which is bound to one shard and one local transaction, is asked to touch a second
 * shard (a nested {@code inUnit} or {@code persist} for a key owned by another shard). Transactions never span
 * shards: run the second unit separately (a saga), after this one commits.
 */
public class CrossShardUnitOfWorkException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public CrossShardUnitOfWorkException(String message) {
        super(message);
    }

    public CrossShardUnitOfWorkException(String message, Throwable cause) {
        super(message, cause);
    }
}
