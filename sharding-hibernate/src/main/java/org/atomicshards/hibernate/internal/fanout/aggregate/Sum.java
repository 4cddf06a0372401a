package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code sum(x)} and {@code sum(distinct x)}: each shard sums its rows and the merge adds the sums, in the type the
 * database's SUM returns (null when every value is null); over DISTINCT values each shard returns its distinct values
 * and the merge adds each once, decimals at the column's scale.
 */
public final class Sum implements MergeableAggregate {

    @Override
    public List<String> functionNames() {
        return List.of("sum");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        if (call.distinct()) {
            Class<?> javaType = call.javaType();
            int values = shards.distinctValues(call);
            return group -> Values.asType((Number) group.distinctSum(values), javaType);
        }
        int sum = shards.partial(shards.copy(call.function()), PartialMerge.ADD);
        return group -> group.partial(sum);
    }
}
