package org.atomicshards.hibernate.internal.directory;

/** What the library may do to the catalog's schema at boot (setting {@code atomicshards.catalog.schema}). */
public enum CatalogSchemaAction {

    /** Create a new catalog, or upgrade an older one, with the scripts in the jar, under the catalog lock. */
    CREATE,
    /** Run no DDL: check that every table and column exists and fail naming the script that creates the missing one. */
    VALIDATE
}
