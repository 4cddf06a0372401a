/**
 * The fan-out engine: pruning target shards from the SQM WHERE tree, rewriting the query for each shard (paging,
 * AVG, GROUP BY/HAVING, DISTINCT aggregates), running it on the shards in parallel with timeouts and cancellation,
 * and merging the shards' rows as one database would return them. Private: use
 * {@link org.atomicshards.hibernate.FanOutQueries}.
 *
 * <p>A query ({@code ShardedQueryImpl}, which is also the JPA {@code TypedQuery} of the unbound entity manager) is
 * pruned ({@code ShardPruner}), planned once ({@code MergePlanner}: {@code Projection}, {@code MergeColumns},
 * {@code Grouping}, {@code Ordering}, {@code StringComparisons}, {@code ShardStatementRewrite}, giving a
 * {@code MergePlan}), run ({@code QueryExecution}, {@code ShardScatter}, {@code ShardCursor}) and merged
 * ({@code RowMerge}). Aggregates are planned and merged by their kind in the {@code aggregate} subpackage.
 */
package org.atomicshards.hibernate.internal.fanout;
