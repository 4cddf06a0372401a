package org.atomicshards.hibernate;

/**
 * Thrown when an operation names a shard that is not part of the topology.
 */
public class UnknownShardException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public UnknownShardException(String message) {
        super(message);
    }

    public UnknownShardException(String message, Throwable cause) {
        super(message, cause);
    }
}
