/**
 * The fan-out engine: pruning target shards from the SQM WHERE tree, rewriting the query for each shard (paging,
 * AVG, GROUP BY/HAVING, DISTINCT aggregates), running it on the shards in parallel with timeouts and cancellation,
 * and merging the shards' rows as one database would return them. Private: use
 * {@link org.atomicshards.hibernate.FanOutQueries}.
 */
package org.atomicshards.hibernate.internal.fanout;
