/**
 * The shards' health for Spring Boot's health endpoint: {@link org.atomicshards.spring.boot.health.ShardsHealthIndicator}
 * and its auto-configuration, active only when {@code spring-boot-health} is on the class path.
 */
package org.atomicshards.spring.boot.health;
