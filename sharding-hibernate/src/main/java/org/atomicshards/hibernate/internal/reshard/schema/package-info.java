/**
 * The fence's schema on each shard (created by the first instance that connects, then only read and written) and the
 * few statements of resharding that differ between H2, PostgreSQL and MariaDB.
 */
package org.atomicshards.hibernate.internal.reshard.schema;
