package org.atomicshards.hibernate;

/**
 * Thrown at boot when a setting is missing or invalid, or the topology contradicts the catalog. The message names
 * the setting, the value and the fix. Nothing has been written anywhere when it is thrown.
 */
public class ShardConfigurationException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardConfigurationException(String message) {
        super(message);
    }

    public ShardConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
