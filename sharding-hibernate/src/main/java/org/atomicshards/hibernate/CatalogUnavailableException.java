package org.atomicshards.hibernate;

/**
 * Thrown when an operation needs the catalog database (a new sequence block, a new lookup or round-robin placement,
 * reading a placement this instance has not cached, a map refresh, a directory change) and the catalog cannot be
 * reached within its connection timeout. Nothing was written. Routing from the directory cached in memory is not
 * affected: units of work and fan-outs over keys already known keep working, and the same operation succeeds again
 * once the catalog is back, without a restart. The message names the catalog (never its credentials).
 */
public class CatalogUnavailableException extends CatalogException {

    private static final long serialVersionUID = 1L;

    public CatalogUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
