package org.atomicshards.hibernate;

/**
 * Thrown when a shard's database cannot be reached. Names the shard, never its credentials. At run time (no
 * connection within the pool's timeout) units of work on other shards are not affected; at boot it fails the boot
 * and says how to fix it.
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
