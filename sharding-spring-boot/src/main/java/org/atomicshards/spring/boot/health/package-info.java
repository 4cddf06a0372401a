/**
 * The shards' health for Spring Boot's health endpoint: {@link org.atomicshards.spring.boot.health.ShardsHealthIndicator}
 * and its auto-configuration, active only when {@code spring-boot-health} is on the class path.
 *
 * <p>See <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/operations.md#health-and-the-shards-endpoint">health and the shards endpoint</a>.
 */
package org.atomicshards.spring.boot.health;
