package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;

/**
 * The outcome of {@link ShardAdmin#adopt}: what was checked on the adopted database, what was found wrong, and where
 * the library's ids start.
 *
 * @param shard the adopted shard
 * @param virtualShards the virtual shards it owns (all of them)
 * @param mapVersion the catalog's map version it owns them under
 * @param applied whether the adoption was carried out (false for a dry run, or when {@code problems} is not empty)
 * @param checkedKeyColumns every key column checked for rows without a key, as {@code table.column}
 * @param largestIds per entity hierarchy whose ids the library makes from numbers (by root entity name), the largest
 *        id stored on the shard; absent when it has no rows
 * @param nextIds per hierarchy whose ids come from the catalog's sequence blocks, the smallest id the library hands
 *        out from now on (after a dry run: the smallest it would hand out)
 * @param problems what stands in the way, each naming the table, entity or unit and the fix; empty when adoptable
 */
public record AdoptionReport(ShardId shard, int virtualShards, int mapVersion, boolean applied,
                             List<String> checkedKeyColumns, Map<String, Long> largestIds, Map<String, Long> nextIds,
                             List<String> problems) {

    public AdoptionReport {
        checkedKeyColumns = List.copyOf(checkedKeyColumns);
        largestIds = Map.copyOf(largestIds);
        nextIds = Map.copyOf(nextIds);
        problems = List.copyOf(problems);
    }

    /** Whether nothing stands in the way of the adoption. */
    public boolean adoptable() {
        return problems.isEmpty();
    }
}
