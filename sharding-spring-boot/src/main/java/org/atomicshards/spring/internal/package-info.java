/**
 * Private implementation: the routing EntityManagerFactory, EntityManager and Query proxies, the transaction dialect,
 * the shard scope and the {@code @ShardKeyParam} advice. May change without notice.
 */
package org.atomicshards.spring.internal;
