package org.atomicshards.hibernate.internal.fanout.aggregate;

/**
 * How the values of one shard column combine across the shards' rows of one group: {@code merged} is the result
 * so far (null before the first row), {@code partial} the next shard's value; SQL nulls are ignored, as aggregates
 * ignore them. Thread-safe.
 */
@FunctionalInterface
public interface PartialMerge {

    Object merge(Object merged, Object partial, Values values);

    /** Adds the partial values (partial COUNTs and SUMs). */
    PartialMerge ADD = (merged, partial, values) -> Values.add(merged, partial);

    /** The least value (MIN); enums by name when the database stores their names. */
    static PartialMerge least(boolean enumByName) {
        return (merged, partial, values) -> partial != null
                && (merged == null || values.compare(partial, merged, enumByName) < 0) ? partial : merged;
    }

    /** The greatest value (MAX); enums by name when the database stores their names. */
    static PartialMerge greatest(boolean enumByName) {
        return (merged, partial, values) -> partial != null
                && (merged == null || values.compare(partial, merged, enumByName) > 0) ? partial : merged;
    }
}
