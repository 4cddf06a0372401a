package org.atomicshards.hibernate;

/**
 * Thrown before anything is written when an entity of an atomic unit has no shard key (null), or when a key passed
 * to the API is null.
 */
public class MissingShardKeyException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public MissingShardKeyException(String message) {
        super(message);
    }

    public MissingShardKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
