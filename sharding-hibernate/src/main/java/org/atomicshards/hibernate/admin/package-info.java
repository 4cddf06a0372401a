/**
 * Administration of a running sharded factory's topology: {@link org.atomicshards.hibernate.admin.ShardAdmin},
 * reached through {@code ShardedSessionFactory.admin()}.
 */
package org.atomicshards.hibernate.admin;
