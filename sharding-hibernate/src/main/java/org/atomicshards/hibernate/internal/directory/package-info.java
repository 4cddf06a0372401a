/** The shard directory, stored in a catalog database over plain JDBC and cached in memory. */
package org.atomicshards.hibernate.internal.directory;
