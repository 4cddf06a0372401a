package org.atomicshards.hibernate.internal.fanout.aggregate;

import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.expression.SqmExpression;

/**
 * What an aggregate asks of the query planner: the columns each shard computes, and the string comparisons the
 * merge will make. Implemented by the planner; valid while one query is planned.
 */
public interface ShardColumns {

    /**
     * Adds a column to each shard's query whose values combine across the shards' rows of one group with
     * {@code merge}.
     *
     * @param shardExpression an expression of the shard query (built from {@link #copy copies} of the user's nodes)
     * @return the column's index, for {@link MergedGroup#partial}
     */
    int partial(SqmExpression<?> shardExpression, PartialMerge merge);

    /**
     * The column of the distinct values of the call's argument: each shard groups by it and returns each value once,
     * the merge collects them per group ({@link MergedGroup#distinctValues}). Calls over the same argument share one
     * column. Records that the merge matches strings for equality when the argument is text.
     *
     * @throws org.atomicshards.hibernate.UnsupportedFanOutQueryException for a call with a FILTER clause, or over
     *                                                                     an entity, a tuple or {@code *}
     */
    int distinctValues(AggregateCall call);

    /** A copy of a node of the user's query, for the shard query. */
    SqmExpression<?> copy(SqmExpression<?> expression);

    /** Builds new shard expressions (for example a SUM over a {@link #copy copied} argument). */
    NodeBuilder nodeBuilder();

    /**
     * Whether the database orders this expression's enum values by name (a character column) rather than by
     * declaration order; false for anything that is not an enum.
     *
     * @throws org.atomicshards.hibernate.UnsupportedFanOutQueryException for an enum whose column type is not known
     */
    boolean enumByName(SqmExpression<?> expression);

    /**
     * Records that the merge orders the values of {@code argument}, the argument of {@code function} (when they are
     * strings, or enums stored by name, the targets' collations are checked before the query runs, and a refusal
     * names {@code function(argument)}).
     */
    void ordersValues(String function, SqmExpression<?> argument);
}
