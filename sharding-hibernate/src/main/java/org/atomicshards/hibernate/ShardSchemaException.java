package org.atomicshards.hibernate;

/** Thrown when a schema action fails on a shard; the message names the shard and the action. */
public class ShardSchemaException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardSchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
