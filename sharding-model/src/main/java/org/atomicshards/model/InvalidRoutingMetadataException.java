package org.atomicshards.model;

/**
 * Thrown when a routing-metadata resource cannot be read: unknown format version, a missing or inconsistent
 * property. The message names the resource, the property and the fix.
 */
public class InvalidRoutingMetadataException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidRoutingMetadataException(String message) {
        super(message);
    }

    public InvalidRoutingMetadataException(String message, Throwable cause) {
        super(message, cause);
    }
}
