package org.atomicshards.hibernate.spi;

import java.util.List;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * Read-only view of a built factory's topology and routing, for integrations that decide where work runs
 * (fan-out queries, Spring repositories, benchmarks).
 *
 * <p>Safe for concurrent use. No method queries the catalog database: everything is answered from memory, which
 * follows the topology as it changes (shards added, virtual shards moved, ring members changed).
 */
public interface ShardRouter {

    /**
     * The physical shards that may hold rows of atomic units now (owning a virtual shard or a place in a
     * consistent-hash ring), in topology order: what a fan-out queries. An immutable snapshot; a shard that owns
     * nothing yet (just added) is not in it. Never empty, never null.
     */
    List<ShardId> shards();

    /**
     * The routing of the atomic unit that {@code entityType} belongs to (as root or member).
     *
     * @return empty for reference data and for types that are not mapped entities; never null
     */
    Optional<UnitRouting> routingOf(Class<?> entityType);

    /**
     * The physical shards that may hold rows of {@code entityType} whose {@code attribute} equals one of
     * {@code values}, as the attribute's {@link org.atomicshards.annotations.ShardIndex} names them (asks the shards
     * holding the values' index entries). May name more shards than hold such rows, never fewer for rows committed
     * before the call.
     *
     * @return empty when the attribute has no index or a value cannot be one of its values (nothing can be narrowed);
     *         never null
     */
    default Optional<Set<ShardId>> shardsForIndexedValues(Class<?> entityType, String attribute,
                                                          Collection<?> values) {
        return Optional.empty();
    }
}
