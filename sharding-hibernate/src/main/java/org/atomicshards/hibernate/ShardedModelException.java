package org.atomicshards.hibernate;

/**
 * Thrown at boot when the mapped entities break a rule of the atomic-unit model. The message lists every violation
 * with the same stable code ({@code [SHARD-0xx]}) the annotation processor reports in the build.
 */
public class ShardedModelException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardedModelException(String message) {
        super(message);
    }

    public ShardedModelException(String message, Throwable cause) {
        super(message, cause);
    }
}
