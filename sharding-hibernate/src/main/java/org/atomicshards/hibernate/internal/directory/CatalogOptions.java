package org.atomicshards.hibernate.internal.directory;

/**
 * How the catalog is opened.
 *
 * @param schemaAction create/upgrade or only validate the catalog's tables
 * @param connectionTimeoutMillis how long an operation waits for a catalog connection before the catalog is
 *        reported unavailable (also bounds the first connection at boot)
 * @param lockTimeoutMillis how long a booting instance waits for another one that holds the catalog's (or a
 *        shard's schema) lock
 * @param refreshIntervalMillis how often a running instance re-reads the map, the shards and the rings from the
 *        catalog; 0 never
 */
public record CatalogOptions(CatalogSchemaAction schemaAction, long connectionTimeoutMillis, long lockTimeoutMillis,
                             long refreshIntervalMillis) {

    /** The default refresh interval: 5 s. */
    public static final long DEFAULT_REFRESH_INTERVAL_MILLIS = 5_000;

    /** Defaults: create/upgrade, 5 s to connect, 60 s to wait for another instance's boot, refresh every 5 s. */
    public static final CatalogOptions DEFAULTS = new CatalogOptions(CatalogSchemaAction.CREATE, 5_000, 60_000,
            DEFAULT_REFRESH_INTERVAL_MILLIS);

    /** Options with the default refresh interval. */
    public CatalogOptions(CatalogSchemaAction schemaAction, long connectionTimeoutMillis, long lockTimeoutMillis) {
        this(schemaAction, connectionTimeoutMillis, lockTimeoutMillis, DEFAULT_REFRESH_INTERVAL_MILLIS);
    }
}
