package org.atomicshards.hibernate;

import java.math.BigInteger;
import java.util.Objects;

/**
 * An inclusive range of integral shard keys owned by one virtual shard, for the {@code range} selection policy
 * ({@link Policies#range}).
 *
 * @param from the lowest key of the range (inclusive)
 * @param to the highest key of the range (inclusive), not below {@code from}
 * @param virtualShard the virtual shard owning the range
 */
public record KeyRange(BigInteger from, BigInteger to, int virtualShard) {

    public KeyRange {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (from.compareTo(to) > 0) {
            throw new IllegalArgumentException("Range " + from + ".." + to + " is empty: 'from' must not exceed 'to'");
        }
        if (virtualShard < 0) {
            throw new IllegalArgumentException("Virtual shard " + virtualShard + " is negative");
        }
    }

    /** Shorthand for a range of {@code long} keys. */
    public static KeyRange of(long from, long to, int virtualShard) {
        return new KeyRange(BigInteger.valueOf(from), BigInteger.valueOf(to), virtualShard);
    }

    /** Whether {@code key} lies inside this range. */
    public boolean contains(BigInteger key) {
        return from.compareTo(key) <= 0 && key.compareTo(to) <= 0;
    }

    /** Whether this range and {@code other} share at least one key. */
    public boolean overlaps(KeyRange other) {
        return from.compareTo(other.to) <= 0 && other.from.compareTo(to) <= 0;
    }

    @Override
    public String toString() {
        return from + "-" + to + "=" + virtualShard;
    }
}
