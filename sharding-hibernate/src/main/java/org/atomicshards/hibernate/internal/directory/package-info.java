/**
 * The shard directory, stored in a catalog database over plain JDBC and cached in memory. The catalog is shared by
 * every instance of an application: its schema is versioned (scripts per database in
 * {@code META-INF/atomic-shards/catalog/}), its initialisation runs under the database's own lock, and an unreachable
 * catalog is reported as {@link org.atomicshards.hibernate.CatalogUnavailableException} while routing continues
 * from memory.
 */
package org.atomicshards.hibernate.internal.directory;
