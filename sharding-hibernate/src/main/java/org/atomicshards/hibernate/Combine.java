package org.atomicshards.hibernate;

/** How the answers of several shards are combined (seed 004's combine strategy). */
public enum Combine {
    /** The first non-null answer wins; the remaining shards are not asked (sequential) or are cancelled (parallel). */
    FIRST,
    /** Every non-null answer is kept, in topology order. */
    ALL
}
