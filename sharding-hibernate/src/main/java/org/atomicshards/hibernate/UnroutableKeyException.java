package org.atomicshards.hibernate;

/**
 * Thrown when a shard key cannot be mapped to a shard: a value outside every configured range, a key of the wrong
 * type, or a key that was never placed under a lookup policy when a placement is required.
 */
public class UnroutableKeyException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public UnroutableKeyException(String message) {
        super(message);
    }

    public UnroutableKeyException(String message, Throwable cause) {
        super(message, cause);
    }
}
