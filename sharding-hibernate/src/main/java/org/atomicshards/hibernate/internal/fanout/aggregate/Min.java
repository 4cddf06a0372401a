package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code min(x)} (DISTINCT changes nothing): each shard returns its least value, the merge keeps the least. Orders
 * strings, and enums stored by name, with the targets' collation, which is checked before the query runs.
 */
public final class Min implements MergeableAggregate {

    @Override
    public List<String> functionNames() {
        return List.of("min");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        int least = shards.partial(shards.copy(call.function()),
                PartialMerge.least(shards.enumByName(call.argument())));
        shards.ordersValues(call.name(), call.argument());
        return group -> group.partial(least);
    }
}
