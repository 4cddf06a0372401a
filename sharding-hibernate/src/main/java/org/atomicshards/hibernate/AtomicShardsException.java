package org.atomicshards.hibernate;

/**
 * The root of every exception Atomic Shards throws. Unchecked, like Hibernate's and JPA's own exceptions.
 *
 * <p>Messages name what went wrong (the shard, the entity, the setting) and how to fix it. They never contain
 * credentials or the values of bound parameters.
 */
public class AtomicShardsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AtomicShardsException(String message) {
        super(message);
    }

    public AtomicShardsException(String message, Throwable cause) {
        super(message, cause);
    }
}
