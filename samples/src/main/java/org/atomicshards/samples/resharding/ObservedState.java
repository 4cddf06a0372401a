package org.atomicshards.samples.resharding;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the shards and the catalog hold once the workload has stopped, for {@link PlacementCheck}.
 *
 * @param shards the live rows of every shard, each read from its own database
 * @param catalogMap the catalog's latest virtual-shard map, read from the catalog database: virtual shard to shard
 * @param instanceMap the map the running factory routes with
 * @param ownerOf the shard the factory routes a user id to (with {@code instanceMap})
 * @param fanOut what fan-out counts across the shards answered
 */
public record ObservedState(List<ShardContents> shards, Map<Integer, String> catalogMap,
                            Map<Integer, String> instanceMap, Function<Long, String> ownerOf, FanOutCounts fanOut) {

    public ObservedState {
        shards = List.copyOf(shards);
        catalogMap = Map.copyOf(catalogMap);
        instanceMap = Map.copyOf(instanceMap);
    }

    /**
     * Counts answered by fan-out queries ({@code select count(..)} without a shard key).
     *
     * @param users users counted
     * @param statuses statuses counted
     * @param photos photos counted
     */
    public record FanOutCounts(long users, long statuses, long photos) {
    }
}
