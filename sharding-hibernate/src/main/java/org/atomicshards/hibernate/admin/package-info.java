/**
 * Administration of a running sharded deployment: adding and retiring shards, moving virtual shards between
 * shards online (move, split, merge, drain, rebalance), resuming interrupted operations and watching their
 * progress. Obtain it from {@link org.atomicshards.hibernate.ShardedSessionFactory#admin()}.
 *
 * <p>Runbooks: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/operations.md#runbooks">operations</a>; the protocol and its guarantees:
 * <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/resharding.md">resharding online</a>.
 */
package org.atomicshards.hibernate.admin;
