package org.atomicshards.hibernate;

/**
 * Thrown when a shard's database cannot be reached (no connection within the pool's timeout). Names the shard;
 * units of work on other shards are not affected.
 */
public class ShardUnavailableException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardUnavailableException(String message) {
        super(message);
    }

    public ShardUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
