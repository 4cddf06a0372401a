/**
 * The {@code shards} actuator endpoint ({@link org.atomicshards.spring.boot.actuate.ShardsEndpoint}) and its
 * auto-configuration, active only when Spring Boot's actuator is on the class path.
 *
 * <p>See <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/operations.md#health-and-the-shards-endpoint">health and the shards endpoint</a>.
 */
package org.atomicshards.spring.boot.actuate;
