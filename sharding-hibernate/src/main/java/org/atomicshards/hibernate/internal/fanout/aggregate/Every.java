package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code every(predicate)} (also {@code all(...)}; {@code bool_and} on H2 and PostgreSQL): whether the predicate
 * holds for every row of the group. Each shard answers for its rows and the merge ANDs the answers, ignoring a
 * shard's null (no row, or only UNKNOWN predicates there) as the database ignores those rows; null when every
 * shard's answer is null. The predicate is evaluated by each shard's database: the merge compares no strings.
 */
public final class Every implements MergeableAggregate {

    private static final PartialMerge AND = (merged, partial, values) -> partial == null ? merged
            : merged == null ? partial : (Boolean) merged && (Boolean) partial;

    @Override
    public List<String> functionNames() {
        return List.of("every", "bool_and");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        int all = shards.partial(shards.copy(call.function()), AND);
        return group -> group.partial(all);
    }
}
