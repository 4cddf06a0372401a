/**
 * Administration of a running sharded deployment: adding and retiring shards, moving virtual shards between
 * shards online (move, split, merge, drain, rebalance), resuming interrupted operations and watching their
 * progress. Obtain it from {@link org.atomicshards.hibernate.ShardedSessionFactory#admin()}.
 */
package org.atomicshards.hibernate.admin;
