package org.atomicshards.hibernate;

/**
 * Thrown before anything is written (or read) when a {@code String} shard key cannot be stored faithfully by the
 * databases: it contains the NUL character, contains an unpaired UTF-16 surrogate (not valid Unicode, so it cannot
 * round-trip through UTF-8), or is longer than the shortest key column of its unit (or, for lookup and round-robin
 * units, than the catalog's placement key column). The message names the limit and the fix, never the whole key.
 */
public class InvalidShardKeyException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public InvalidShardKeyException(String message) {
        super(message);
    }
}
