package org.atomicshards.hibernate.admin;

import org.atomicshards.hibernate.AtomicShardsException;

/** A topology change that was refused; the message names the shard, why, and the fix. Nothing was changed. */
public class ShardTopologyException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardTopologyException(String message) {
        super(message);
    }

    public ShardTopologyException(String message, Throwable cause) {
        super(message, cause);
    }
}
