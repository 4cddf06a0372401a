package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * A test aggregate kind, registered by no engine of the library: H2's {@code bit_xor_agg(x)}, the bitwise
 * exclusive OR of a group's integer values, as a test's session factory registers it. It shows what adding an
 * aggregate takes: this one class and its registration. Each shard folds its rows and the merge folds the
 * shards' answers, ignoring a shard's null; over DISTINCT values each shard returns its distinct values and the merge
 * folds each value once (a value on two shards would otherwise cancel itself).
 */
public final class BitXor implements MergeableAggregate {

    /** The name the test's session factory registers the function under. */
    public static final String FUNCTION = "bit_xor_agg";

    private static final PartialMerge FOLD = (merged, partial, values) -> partial == null ? merged
            : merged == null ? partial : ((Number) merged).longValue() ^ ((Number) partial).longValue();

    @Override
    public List<String> functionNames() {
        return List.of(FUNCTION);
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        Class<?> type = call.argument().getJavaType();
        if (call.distinct()) {
            int values = shards.distinctValues(call);
            return group -> group.distinctValues(values).stream().map(Number.class::cast)
                    .reduce((left, right) -> left.longValue() ^ right.longValue())
                    .map(folded -> Values.asType(folded, type)).orElse(null);
        }
        int folded = shards.partial(shards.copy(call.function()), FOLD);
        return group -> Values.asType((Number) group.partial(folded), type);
    }
}
