package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.List;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.expression.SqmExpression;

/**
 * {@code avg(x)} and {@code avg(distinct x)}: each shard returns SUM(x), typed as the database's SUM is, and COUNT(x)
 * instead (an average of averages would weigh the shards wrongly), the merge adds both and divides, rounded as the
 * shards' database rounds its AVG ({@link AverageRounding}); over DISTINCT values each shard returns its distinct
 * values and the merge averages each once. Refused with a FILTER clause (the rewritten SUM and COUNT would not carry
 * it).
 */
public final class Average implements MergeableAggregate {

    private final AverageRounding rounding;

    Average(AverageRounding rounding) {
        this.rounding = rounding;
    }

    @Override
    public List<String> functionNames() {
        return List.of("avg");
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        Class<?> javaType = call.javaType();
        if (call.distinct()) {
            int values = shards.distinctValues(call);
            return group -> average(group.distinctSum(values), group.distinctValues(values).size(), javaType);
        }
        if (call.filtered()) {
            throw new UnsupportedFanOutQueryException("avg(...) with a FILTER clause",
                    "Move the filter condition into the WHERE clause.");
        }
        NodeBuilder nodeBuilder = shards.nodeBuilder();
        SqmExpression argument = shards.copy(call.argument());
        int sum = shards.partial(databaseSum(nodeBuilder, argument), PartialMerge.ADD);
        int count = shards.partial((SqmExpression<?>) nodeBuilder.count(argument), PartialMerge.ADD);
        return group -> average(group.partial(sum),
                group.partial(count) == null ? 0 : ((Number) group.partial(count)).longValue(), javaType);
    }

    /**
     * SUM of the argument in the type the database's SUM returns, as JPQL types it (Long over integral types, Double
     * over floating point types, BigInteger and BigDecimal over those): {@code sumAsLong} leaves the type to SUM's own
     * resolver, whatever the argument's type. {@code NodeBuilder#sum} would type it as its argument, as Criteria
     * does, and each shard's sum of shorts or ints would be read as a Short or an Integer: out of range on one shard
     * (a failure) or in the merged sum (a wrong average).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static SqmExpression<?> databaseSum(NodeBuilder nodeBuilder, SqmExpression argument) {
        return nodeBuilder.sumAsLong(argument);
    }

    private Object average(Object sum, long count, Class<?> javaType) {
        Double average = rounding.average(sum, count);
        Class<?> type = javaType == null || javaType == Object.class ? Double.class : javaType;
        return Values.asType(average, type);
    }
}
