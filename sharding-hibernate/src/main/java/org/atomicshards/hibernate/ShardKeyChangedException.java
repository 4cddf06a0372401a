package org.atomicshards.hibernate;

/**
 * Thrown at flush, before the update is written, when the shard key of a managed entity was changed. Shard keys are
 * immutable; moving a unit to another key is an explicit administrative operation.
 */
public class ShardKeyChangedException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardKeyChangedException(String message) {
        super(message);
    }

    public ShardKeyChangedException(String message, Throwable cause) {
        super(message, cause);
    }
}
