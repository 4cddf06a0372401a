package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.Set;

/** The merged shard columns of one group, after every shard's rows of it were read. */
public interface MergedGroup {

    /** A {@link ShardColumns#partial partial} column's merged value (null when every shard's value was null). */
    Object partial(int column);

    /**
     * The distinct non-null values of a {@link ShardColumns#distinctValues distinct-values} column, as merge keys
     * (decimals without trailing zeros, strings as the collation's equality sees them); never null.
     */
    Set<Object> distinctValues(int column);

    /** The sum of a distinct-values column's values; decimals at the column's scale, as the database sums them. */
    Object distinctSum(int column);
}
