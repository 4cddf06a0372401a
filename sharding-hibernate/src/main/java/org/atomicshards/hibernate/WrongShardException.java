package org.atomicshards.hibernate;

/**
 * Thrown before a row is written when an entity's shard key belongs to another shard than the session's: the row
 * would land on the wrong database. Route the work with {@code inUnit(key, ...)} or {@code persist(entity)}.
 */
public class WrongShardException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public WrongShardException(String message) {
        super(message);
    }

    public WrongShardException(String message, Throwable cause) {
        super(message, cause);
    }
}
