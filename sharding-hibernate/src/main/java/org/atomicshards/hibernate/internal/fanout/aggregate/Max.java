package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code max(x)} (DISTINCT changes nothing): each shard returns its greatest value, the merge keeps the greatest.
 * Orders strings, and enums stored by name, with the targets' collation, which is checked before the query runs.
 */
public final class Max implements MergeableAggregate {

    @Override
    public List<String> functionNames() {
        return List.of("max");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        int greatest = shards.partial(shards.copy(call.function()),
                PartialMerge.greatest(shards.enumByName(call.argument())));
        shards.ordersValues(call.name(), call.argument());
        return group -> group.partial(greatest);
    }
}
