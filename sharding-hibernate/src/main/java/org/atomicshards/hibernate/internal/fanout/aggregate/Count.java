package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code count(x)}, {@code count(*)}, {@code count(distinct x)}: each shard counts its rows and the merge adds the
 * counts (no row anywhere: 0); over DISTINCT values each shard returns its distinct values and the merge counts
 * them once (strings matched as the targets' collation matches them).
 */
public final class Count implements MergeableAggregate {

    @Override
    public List<String> functionNames() {
        return List.of("count");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        Class<?> javaType = call.javaType();
        if (call.distinct()) {
            int values = shards.distinctValues(call);
            return group -> Values.asType((long) group.distinctValues(values).size(), javaType);
        }
        int count = shards.partial(shards.copy(call.function()), PartialMerge.ADD);
        return group -> Values.asType(group.partial(count) == null ? 0L : (Number) group.partial(count), javaType);
    }
}
