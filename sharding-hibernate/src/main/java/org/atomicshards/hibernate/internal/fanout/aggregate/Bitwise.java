package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.LongBinaryOperator;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.query.criteria.JpaExpression;
import org.hibernate.query.criteria.JpaPredicate;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.expression.SqmAggregateFunction;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.predicate.SqmPredicate;

/**
 * {@code bit_and(x)} and {@code bit_or(x)} (Hibernate registers them for H2, PostgreSQL, MySQL and MariaDB): the
 * bitwise AND or OR of a group's integer values. Each shard folds its rows and the merge folds the shards' answers the
 * same way, ignoring a shard's null (no row, or only nulls, there) as the database ignores null rows; null when every
 * shard's answer is null. MariaDB and MySQL answer a shard with no value with the operation's identity: for OR 0, which
 * the fold leaves unchanged (and which the merge answers itself when no shard returned a row for the group, as when the
 * shards return their rows per distinct value beside a {@code count(distinct y)} and none matched); for AND every bit
 * of a BIGINT UNSIGNED, which does not fit the argument's type, so reading it would fail the whole fan-out. Each shard
 * therefore computes {@code bit_and} as {@code case when count(x) > 0 then bit_and(x) end} (the count under the call's
 * FILTER): null where it has no value. Over no row at all the fan-out's bit_and is null on every database, where one
 * MariaDB database answers a value Hibernate cannot read into the argument's type; a query pruned to one shard takes
 * this path too on MariaDB and MySQL, rather than run as written there ({@code ShardedQueryImpl#runsAsWrittenOnOneShard}). A FILTER, and a DISTINCT where the
 * database accepts one (H2 and PostgreSQL; not MariaDB), is applied by each shard: folding a value twice changes
 * nothing, so the merge stays exact. The merged value has the argument's class, as one database's answer has. A call
 * over a value whose type is known and not an integer (PostgreSQL also folds bit strings) is refused before any shard
 * is asked.
 */
public final class Bitwise implements MergeableAggregate {

    private static final Set<Class<?>> INTEGERS = Set.of(Long.class, Integer.class, Short.class, Byte.class,
            BigInteger.class, long.class, int.class, short.class, byte.class);

    private final String name;
    /** Whether a shard without values answers null rather than the operation's identity (AND: every bit set). */
    private final boolean shardsAnswerNullWithoutValues;
    private final PartialMerge fold;
    /** What one database answers for a group without values: null, or 0 for OR on MariaDB and MySQL. */
    private final Long withoutValues;

    private Bitwise(String name, boolean shardsAnswerNullWithoutValues, LongBinaryOperator longs,
                    BinaryOperator<BigInteger> bigIntegers, Long withoutValues) {
        this.name = name;
        this.shardsAnswerNullWithoutValues = shardsAnswerNullWithoutValues;
        this.withoutValues = withoutValues;
        this.fold = (merged, partial, values) -> partial == null ? merged
                : merged == null ? partial : fold(merged, partial, longs, bigIntegers);
    }

    /** {@code bit_and(x)}. */
    public static Bitwise and() {
        return new Bitwise("bit_and", true, (left, right) -> left & right, BigInteger::and, null);
    }

    /** {@code bit_or(x)} as {@code dialect}'s database answers it (0 over no value on MariaDB and MySQL). */
    public static Bitwise or(Dialect dialect) {
        return new Bitwise("bit_or", false, (left, right) -> left | right, BigInteger::or,
                dialect instanceof MySQLDialect ? 0L : null);
    }

    @Override
    public List<String> functionNames() {
        return List.of(name);
    }

    @Override
    public MergedValue plan(AggregateCall call, ShardColumns shards) {
        Class<?> argumentType = call.argument().getJavaType();
        if (argumentType != null && argumentType != Object.class && !INTEGERS.contains(argumentType)) {
            throw new UnsupportedFanOutQueryException(name + "(...) over a " + argumentType.getSimpleName() + " value",
                    "Only integer values are folded bitwise across shards; cast the argument to an integer type, or "
                            + "name the shard key so the query runs on one shard.");
        }
        SqmExpression<?> shardValue = shardsAnswerNullWithoutValues ? nullWithoutValues(call, shards)
                : shards.copy(call.function());
        int folded = shards.partial(shardValue, fold);
        return group -> {
            Number merged = (Number) group.partial(folded);
            return Values.asType(merged == null ? withoutValues : merged, argumentType);
        };
    }

    /** {@code case when count(x) > 0 then <the call> end}, the count under the call's FILTER. */
    @SuppressWarnings("unchecked")
    private static SqmExpression<?> nullWithoutValues(AggregateCall call, ShardColumns shards) {
        NodeBuilder builder = shards.nodeBuilder();
        SqmExpression<?> argument = shards.copy(call.argument());
        SqmPredicate filter = call.function() instanceof SqmAggregateFunction<?> aggregate ? aggregate.getFilter()
                : null;
        JpaExpression<Long> values = filter == null ? builder.count(argument)
                : builder.count(argument, (JpaPredicate) shards.copy(filter));
        SqmExpression<Object> folded = (SqmExpression<Object>) shards.copy(call.function());
        return (SqmExpression<?>) builder.selectCase().when(builder.gt(values, builder.literal(0L)), folded);
    }

    private static Object fold(Object merged, Object partial, LongBinaryOperator longs,
                               BinaryOperator<BigInteger> bigIntegers) {
        if (merged instanceof BigInteger left) {
            return bigIntegers.apply(left, (BigInteger) partial);
        }
        long folded = longs.applyAsLong(((Number) merged).longValue(), ((Number) partial).longValue());
        if (merged instanceof Long) {
            return folded;
        }
        if (merged instanceof Integer) {
            return (int) folded;
        }
        if (merged instanceof Short) {
            return (short) folded;
        }
        if (merged instanceof Byte) {
            return (byte) folded;
        }
        throw new IllegalStateException(
                "A bitwise aggregate returned a " + merged.getClass().getName() + ", not an integer");
    }
}
