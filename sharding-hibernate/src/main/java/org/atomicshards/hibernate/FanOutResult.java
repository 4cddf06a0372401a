package org.atomicshards.hibernate;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The merged result of a fan-out query, with the shards it ran on and those that failed (only ever non-empty
 * under {@link ExecutionPolicy#PARTIAL}).
 *
 * @param rows            the merged rows, paged; unmodifiable, never null
 * @param queriedShards   the shards the query was sent to, after pruning; never null
 * @param failures        the shards that did not answer; empty when the result is complete
 * @param peakBufferedRows the most shard rows the merge held in memory at once
 * @param <T>             the row type
 */
public record FanOutResult<T>(List<T> rows, Set<ShardId> queriedShards, List<ShardFailure> failures,
                              long peakBufferedRows) {

    public FanOutResult {
        rows = java.util.Collections.unmodifiableList(rows);
        queriedShards = Set.copyOf(queriedShards);
        failures = List.copyOf(failures);
    }

    /** True when every queried shard answered. */
    public boolean isComplete() {
        return failures.isEmpty();
    }

    /** The shards whose rows are missing from {@link #rows()}. */
    public Set<ShardId> missingShards() {
        return failures.stream().map(ShardFailure::shard).collect(Collectors.toUnmodifiableSet());
    }
}
