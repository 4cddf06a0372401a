/**
 * Spring Boot auto-configuration: {@code atomicshards.*} properties, the sharded EntityManagerFactory and transaction
 * manager, repositories, shard-pool metrics and the failure analyzer for configuration errors.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/getting-started.md#spring-boot">getting started with Spring Boot</a>; every
 * property: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/configuration.md">configuration reference</a>.
 */
package org.atomicshards.spring.boot;
