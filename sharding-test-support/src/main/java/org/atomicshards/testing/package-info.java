/**
 * Test support: {@link org.atomicshards.testing.ShardDatabases} creates N shard databases of one kind (embedded H2,
 * PostgreSQL, MariaDB) with random names and drops them on close; {@link org.atomicshards.testing.ShardDatabasesExtension}
 * does the same around a JUnit test class.
 */
package org.atomicshards.testing;
