package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.LongBinaryOperator;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;

/**
 * {@code bit_and(x)} and {@code bit_or(x)} (Hibernate registers them for H2, PostgreSQL, MySQL and MariaDB): the
 * bitwise AND or OR of a group's integer values. Each shard folds its rows and the merge folds the shards' answers
 * the same way, ignoring a shard's null (no row, or only nulls, there) as the database ignores null rows; null when
 * every shard's answer is null. MariaDB and MySQL answer a shard with no row with the operation's identity (0 for OR,
 * every bit set for AND), which the fold leaves unchanged. A FILTER, and a DISTINCT where the database accepts one
 * (H2 and PostgreSQL; not MariaDB), is applied by each shard: folding a value twice changes nothing, so the merge
 * stays exact. The merged value keeps the class of the shards' answers. A call over a value whose type is known and
 * not an integer (PostgreSQL also folds bit strings) is refused before any shard is asked.
 */
public final class Bitwise implements MergeableAggregate {

    private static final Set<Class<?>> INTEGERS = Set.of(Long.class, Integer.class, Short.class, Byte.class,
            BigInteger.class, long.class, int.class, short.class, byte.class);

    private final String name;
    private final PartialMerge fold;

    private Bitwise(String name, LongBinaryOperator longs, BinaryOperator<BigInteger> bigIntegers) {
        this.name = name;
        this.fold = (merged, partial, values) -> partial == null ? merged
                : merged == null ? partial : fold(merged, partial, longs, bigIntegers);
    }

    /** {@code bit_and(x)}. */
    public static Bitwise and() {
        return new Bitwise("bit_and", (left, right) -> left & right, BigInteger::and);
    }

    /** {@code bit_or(x)}. */
    public static Bitwise or() {
        return new Bitwise("bit_or", (left, right) -> left | right, BigInteger::or);
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
        int folded = shards.partial(shards.copy(call.function()), fold);
        return group -> group.partial(folded);
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
