/**
 * The {@code shards} actuator endpoint ({@link org.atomicshards.spring.boot.actuate.ShardsEndpoint}) and its
 * auto-configuration, active only when Spring Boot's actuator is on the class path.
 */
package org.atomicshards.spring.boot.actuate;
