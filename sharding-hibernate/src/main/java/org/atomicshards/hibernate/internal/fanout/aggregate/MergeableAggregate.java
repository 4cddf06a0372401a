package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * One kind of aggregate function that a fan-out merges exactly: what each shard computes for a call of it, how
 * the shards' partial values combine, and how the merged value is finished. Implementations are stateless and
 * thread-safe (one instance serves every query of an engine); they are listed in {@link MergeableAggregates}.
 */
public interface MergeableAggregate {

    /**
     * The names Hibernate gives the function in a query tree, lower case; a dialect may use its own name (H2 and
     * PostgreSQL call {@code every} {@code bool_and}). The first one names the kind in messages. Never empty; no
     * two kinds of one registry share a name.
     */
    List<String> functionNames();

    /**
     * Plans one call of the function in a query: adds, through {@code shards}, the columns each shard computes for
     * it (and records the string comparisons the merge of those columns makes), and returns how the merged value is
     * finished from them. Called at planning time, once per distinct call of a query, never with null.
     *
     * @throws org.atomicshards.hibernate.UnsupportedFanOutQueryException naming the construct, if this call cannot
     *                                                                     be merged exactly (nothing has run yet)
     */
    MergedValue plan(AggregateCall call, ShardColumns shards);
}
