package org.atomicshards.hibernate.spi;

import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * How the keys of one atomic unit map to physical shards. Immutable and thread-safe.
 */
public interface UnitRouting {

    /** The unit's root entity (the class annotated {@code @AtomicUnit}); never null. */
    Class<?> root();

    /** The Java type of the unit's shard key (e.g. {@code Long.class}); never null. */
    Class<?> keyType();

    /**
     * The attribute path, relative to {@code memberType}, whose value is the unit's shard key: {@code "id"} on a
     * root keyed by its id, {@code "customerId"} for a basic key column, {@code "customer.id"} for a
     * {@code @ManyToOne @ShardKey} to the root.
     *
     * @throws IllegalArgumentException if {@code memberType} is not the root or a member of this unit
     */
    String shardKeyPath(Class<?> memberType);

    /**
     * The shards that may hold rows of the unit with this key: exactly one for computed policies (hash, range,
     * consistent hash); for directory policies (lookup, round robin) the shard recorded for the key, or an empty
     * set when the key has never been placed (no rows can exist for it).
     *
     * @throws IllegalArgumentException if {@code key} is null or not of {@link #keyType()}
     */
    Set<ShardId> shardsForKey(Object key);

    /**
     * The shards that may hold keys in the given range; a {@code null} bound is unbounded. Policies that cannot
     * narrow a range (hash, consistent hash, lookup, round robin) return every shard.
     */
    Set<ShardId> shardsForRange(Comparable<?> lower, boolean lowerInclusive,
                                Comparable<?> upper, boolean upperInclusive);
}
