package org.atomicshards.spring.boot;

import java.util.Map;

/**
 * Adds to or changes the Hibernate/Atomic Shards settings the auto-configuration builds from
 * {@link AtomicShardsProperties}, just before the sharded {@code EntityManagerFactory} boots. Declare beans of this
 * type to pass instances (listeners, a metrics tracker factory) that properties cannot carry.
 */
@FunctionalInterface
public interface ShardingSettingsCustomizer {

    void customize(Map<String, Object> settings);
}
