package org.atomicshards.hibernate;

import java.io.Serializable;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of one physical shard: a database with its own connection pool.
 *
 * <p>A {@code ShardId} is also the Hibernate tenant identifier of every session opened on that shard, so it is
 * immutable, {@link Serializable}, compares by value and has a stable {@link #toString()} (Hibernate uses the
 * string form in second-level cache keys).
 *
 * @param name the shard's name as configured, e.g. {@code "s0"}; letters, digits, {@code _} and {@code -} only
 */
public record ShardId(String name) implements Serializable, Comparable<ShardId> {

    private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /**
     * @throws IllegalArgumentException if {@code name} is null, empty, longer than 64 characters, or contains a
     *         character other than a letter, a digit, {@code _} or {@code -}
     */
    public ShardId {
        Objects.requireNonNull(name, "shard name");
        if (!VALID_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Invalid shard name '" + name
                    + "': use 1 to 64 letters, digits, '_' or '-' (for example \"s0\")");
        }
    }

    /** Shorthand for {@code new ShardId(name)}. */
    public static ShardId of(String name) {
        return new ShardId(name);
    }

    @Override
    public int compareTo(ShardId other) {
        return name.compareTo(other.name);
    }

    /** Compares the names, after a check for the same instance (the common case: shards are named once, at boot). */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ShardId that && name.equals(that.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
