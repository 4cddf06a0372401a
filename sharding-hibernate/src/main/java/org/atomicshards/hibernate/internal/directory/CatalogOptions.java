package org.atomicshards.hibernate.internal.directory;

/**
 * How the catalog is opened.
 *
 * @param schemaAction create/upgrade or only validate the catalog's tables
 * @param connectionTimeoutMillis how long an operation waits for a catalog connection before the catalog is
 *        reported unavailable (also bounds the first connection at boot)
 * @param lockTimeoutMillis how long a booting instance waits for another one that holds the catalog's (or a
 *        shard's schema) lock
 */
public record CatalogOptions(CatalogSchemaAction schemaAction, long connectionTimeoutMillis, long lockTimeoutMillis) {

    /** Defaults: create/upgrade, 5 s to connect, 60 s to wait for another instance's boot. */
    public static final CatalogOptions DEFAULTS = new CatalogOptions(CatalogSchemaAction.CREATE, 5_000, 60_000);
}
