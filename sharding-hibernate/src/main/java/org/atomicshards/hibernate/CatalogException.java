package org.atomicshards.hibernate;

/**
 * Thrown when the catalog database holding the shard directory cannot be read or written.
 */
public class CatalogException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public CatalogException(String message) {
        super(message);
    }

    public CatalogException(String message, Throwable cause) {
        super(message, cause);
    }
}
