/**
 * Spring Boot auto-configuration: {@code atomicshards.*} properties, the sharded EntityManagerFactory and transaction
 * manager, repositories, shard-pool metrics and the failure analyzer for configuration errors.
 */
package org.atomicshards.spring.boot;
