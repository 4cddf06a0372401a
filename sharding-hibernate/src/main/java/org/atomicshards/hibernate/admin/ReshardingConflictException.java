package org.atomicshards.hibernate.admin;

import org.atomicshards.hibernate.AtomicShardsException;

/**
 * An operation was refused because another one is in progress on the same virtual shards (or into the same target
 * shard); the message names it. Nothing was changed.
 */
public class ReshardingConflictException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    private final String operationInProgress;

    public ReshardingConflictException(String message, String operationInProgress) {
        super(message);
        this.operationInProgress = operationInProgress;
    }

    /** The id of the operation in progress. */
    public String operationInProgress() {
        return operationInProgress;
    }
}
