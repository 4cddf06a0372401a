package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.dialect.Dialect;
import org.hibernate.query.sqm.tree.expression.SqmFunction;

/**
 * The aggregates a fan-out merges, by function name; every other aggregate is refused, naming it. Immutable and
 * thread-safe; one per engine (AVG rounds as the engine's database does).
 */
public final class MergeableAggregates {

    private final List<MergeableAggregate> kinds;
    private final Map<String, MergeableAggregate> byName = new HashMap<>();

    /**
     * @throws IllegalArgumentException if two kinds share a function name
     */
    public MergeableAggregates(List<MergeableAggregate> kinds) {
        this.kinds = List.copyOf(kinds);
        for (MergeableAggregate kind : this.kinds) {
            for (String name : kind.functionNames()) {
                MergeableAggregate previous = byName.put(name.toLowerCase(Locale.ROOT), kind);
                if (previous != null) {
                    throw new IllegalArgumentException("Two mergeable aggregates claim the function " + name + ": "
                            + previous.getClass().getName() + " and " + kind.getClass().getName());
                }
            }
        }
    }

    /**
     * The aggregates of an engine whose shards speak {@code dialect}. Register a new kind here.
     *
     * @param divPrecisionIncrement MariaDB's and MySQL's {@code div_precision_increment}, read when first needed
     */
    public static MergeableAggregates standard(Dialect dialect, IntSupplier divPrecisionIncrement) {
        return new MergeableAggregates(List.of(
                new Count(),
                new Sum(),
                new Min(),
                new Max(),
                new Average(AverageRounding.of(dialect, divPrecisionIncrement)),
                new Every(),
                new Any(),
                Bitwise.and(),
                Bitwise.or(dialect)));
    }

    /**
     * These kinds and {@code more}.
     *
     * @throws IllegalArgumentException if a kind of {@code more} claims a function name of another kind
     */
    public MergeableAggregates with(List<MergeableAggregate> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<MergeableAggregate> all = new ArrayList<>(kinds);
        all.addAll(more);
        return new MergeableAggregates(all);
    }

    /**
     * Plans one call of an aggregate function (see {@link MergeableAggregate#plan}).
     *
     * @throws UnsupportedFanOutQueryException if the function is not mergeable, or this call of it is not
     */
    public MergedValue plan(SqmFunction<?> function, ShardColumns shards) {
        AggregateCall call = new AggregateCall(function);
        MergeableAggregate kind = byName.get(call.name());
        if (kind == null) {
            throw new UnsupportedFanOutQueryException("the aggregate function " + call.name() + "()",
                    "Only " + names() + " can be merged across shards.");
        }
        return kind.plan(call, shards);
    }

    /** The kinds' first names: "count, sum and avg". */
    private String names() {
        List<String> names = kinds.stream().map(kind -> kind.functionNames().get(0)).toList();
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
