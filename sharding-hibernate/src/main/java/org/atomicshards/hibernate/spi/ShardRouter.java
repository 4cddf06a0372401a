package org.atomicshards.hibernate.spi;

import java.util.List;
import java.util.Optional;

import org.atomicshards.hibernate.ShardId;

/**
 * Read-only view of a built factory's frozen topology and routing, for integrations that decide where work runs
 * (fan-out queries, Spring repositories, benchmarks).
 *
 * <p>Implementations are immutable after boot and safe for concurrent use. No method queries the catalog
 * database: everything is answered from memory.
 */
public interface ShardRouter {

    /** Every physical shard, in topology order; never empty, never null. */
    List<ShardId> shards();

    /**
     * The routing of the atomic unit that {@code entityType} belongs to (as root or member).
     *
     * @return empty for reference data and for types that are not mapped entities; never null
     */
    Optional<UnitRouting> routingOf(Class<?> entityType);
}
