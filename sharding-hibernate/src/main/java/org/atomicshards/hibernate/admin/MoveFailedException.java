package org.atomicshards.hibernate.admin;

import org.atomicshards.hibernate.AtomicShardsException;

/**
 * A move stopped before finishing. Its journal in the catalog says where; the map still names, for every virtual
 * shard, the shard holding its rows, and {@link ShardAdmin#resume()} carries the move to completion.
 */
public class MoveFailedException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    private final String operationId;

    public MoveFailedException(String message, String operationId, Throwable cause) {
        super(message, cause);
        this.operationId = operationId;
    }

    /** The id of the interrupted operation, as listed by {@link ShardAdmin#operations()}. */
    public String operationId() {
        return operationId;
    }
}
