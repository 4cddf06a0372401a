package org.atomicshards.hibernate;

/** How shards are asked when the shard of a row is not known from its key (seed 004's access strategy). */
public enum Access {
    /** One shard after the other, in topology order, stopping early when the combine strategy allows. */
    SEQUENTIAL,
    /** All candidate shards at once, on the factory's bounded executor. */
    PARALLEL
}
