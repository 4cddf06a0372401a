package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

/**
 * {@code any(predicate)} (also {@code some(...)}; {@code bool_or} on H2 and PostgreSQL): whether the predicate
 * holds for at least one row of the group. Each shard answers for its rows and the merge ORs the answers, ignoring a
 * shard's null (no row, or only UNKNOWN predicates there) as the database ignores those rows; null when every
 * shard's answer is null. The predicate is evaluated by each shard's database: the merge compares no strings.
 */
public final class Any implements MergeableAggregate {

    private static final PartialMerge OR = (merged, partial, values) -> partial == null ? merged
            : merged == null ? partial : (Boolean) merged || (Boolean) partial;

    @Override
    public List<String> functionNames() {
        return List.of("any", "bool_or");
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        int some = shards.partial(shards.copy(call.function()), OR);
        return group -> group.partial(some);
    }
}
