/**
 * Atomic Shards for Spring applications: {@link org.atomicshards.spring.ShardKeyParam} and
 * {@link org.atomicshards.spring.ShardScopes} pin a unit of work (and its {@code @Transactional} transaction) to the
 * shard owning a key. Spring Data JPA repositories need no change: their entity managers route by key.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/user-guide.md#spring-data">Spring Data</a>.
 */
package org.atomicshards.spring;
