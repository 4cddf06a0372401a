package org.atomicshards.hibernate.internal.fanout.aggregate;

/** Finishes one aggregate's merged value for one group. Thread-safe. */
@FunctionalInterface
public interface MergedValue {

    /** The aggregate's value over all shards' rows of the group, as one database would return it (null allowed). */
    Object finish(MergedGroup group);
}
