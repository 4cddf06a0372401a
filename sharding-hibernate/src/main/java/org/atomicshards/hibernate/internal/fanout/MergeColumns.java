package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.internal.fanout.MergePlan.Combine;
import org.atomicshards.hibernate.internal.fanout.MergePlan.Item;
import org.atomicshards.hibernate.internal.fanout.aggregate.AggregateCall;
import org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregates;
import org.atomicshards.hibernate.internal.fanout.aggregate.PartialMerge;
import org.atomicshards.hibernate.internal.fanout.aggregate.ShardColumns;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.expression.SqmStar;

/**
 * The columns each shard selects and the items the merge computes from them, built while one query is planned.
 * An expression of the user's query becomes one item (asked for twice with one Java type, it is the same item): in a
 * plain query a column; in an aggregating query a group key, a passenger value (constant within a group) or an
 * aggregate, which its {@link MergeableAggregates kind} plans through this class's {@link ShardColumns} side.
 */
final class MergeColumns implements ShardColumns {

    private final SqmCopyContext copyContext;
    private final NodeBuilder nodeBuilder;
    private final MergeableAggregates aggregates;
    private final Set<Class<?>> entityTypes;
    private final SelectedRowPaths rowPaths;
    private final List<SqmExpression<?>> leaves;
    private final StringComparisons strings;
    private final List<SqmExpression<?>> columns = new ArrayList<>();
    private final List<Combine> combine = new ArrayList<>();
    private final List<PartialMerge> partials = new ArrayList<>();
    private final List<Item> items = new ArrayList<>();
    private final List<SqmExpression<?>> itemExpressions = new ArrayList<>();
    private final List<SqmExpression<?>> distinctArguments = new ArrayList<>();
    private final List<Integer> distinctArgumentColumns = new ArrayList<>();

    /**
     * @param copyContext the context the shard statement was copied with (copies of the user's nodes then refer to
     *                    the shard statement's FROM clause)
     * @param leaves      the selected expressions of the user's query
     */
    MergeColumns(SqmCopyContext copyContext, NodeBuilder nodeBuilder, MergeableAggregates aggregates,
                 Set<Class<?>> entityTypes, SelectedRowPaths rowPaths, List<SqmExpression<?>> leaves,
                 StringComparisons strings) {
        this.copyContext = copyContext;
        this.nodeBuilder = nodeBuilder;
        this.aggregates = aggregates;
        this.entityTypes = entityTypes;
        this.rowPaths = rowPaths;
        this.leaves = leaves;
        this.strings = strings;
    }

    List<SqmExpression<?>> columns() {
        return columns;
    }

    Combine[] combine() {
        return combine.toArray(new Combine[0]);
    }

    PartialMerge[] partials() {
        return partials.toArray(new PartialMerge[0]);
    }

    List<Item> items() {
        return items;
    }

    /** The columns each shard groups by for aggregates over DISTINCT values (after the query's own GROUP BY). */
    List<SqmExpression<?>> distinctArgumentColumns() {
        return distinctArgumentColumns.stream().<SqmExpression<?>>map(columns::get).toList();
    }

    boolean isEntityValued(SqmExpression<?> expression) {
        return expression.getJavaType() != null && entityTypes.contains(expression.getJavaType());
    }

    /** The item of an expression of a plain (not aggregating) query: a column the merge compares as a key. */
    int plainItem(SqmExpression<?> expression, boolean distinct, boolean selected) {
        int existing = existingItem(expression);
        if (existing >= 0) {
            return existing;
        }
        if (!selected && distinct && !dependsOnSelectedEntity(expression)) {
            throw new UnsupportedFanOutQueryException("ORDER BY an expression that is not in the SELECT DISTINCT"
                    + " list", "Select the ORDER BY expression too (databases require it for DISTINCT).");
        }
        int column = addColumn(copy(expression), Combine.KEY, null);
        return addItem(expression, new Item(column, null, expression.getJavaType(), isEntityValued(expression)));
    }

    /**
     * A value of a selected entity's own row (an attribute, an embedded attribute, a to-one's foreign key):
     * adding it as a column does not change which rows are distinct.
     */
    private boolean dependsOnSelectedEntity(SqmExpression<?> expression) {
        return expression instanceof SqmPath<?> path
                && rowPaths.readsRowOf(path, owner -> leaves.stream().anyMatch(leaf -> leaf.equals(owner)));
    }

    /** The item of an expression of an aggregating query: a group key, a passenger value or an aggregate. */
    int aggregatingItem(SqmExpression<?> expression, boolean groupKey) {
        int existing = existingItem(expression);
        if (existing >= 0) {
            Item item = items.get(existing);
            if (groupKey && item.aggregate() == null) {
                combine.set(item.column(), Combine.KEY);
            }
            return existing;
        }
        if (AggregateFinder.isAggregate(expression)) {
            SqmFunction<?> function = (SqmFunction<?>) expression;
            return addItem(function, new Item(-1, aggregates.plan(function, this), function.getJavaType(), false));
        }
        if (AggregateFinder.containsAggregate(expression)) {
            throw new UnsupportedFanOutQueryException("an expression over an aggregate ("
                    + expression.toHqlString() + ")", "Select the aggregates themselves and compute the"
                    + " expression from the merged values.");
        }
        int column = addColumn(copy(expression), groupKey ? Combine.KEY : Combine.PASSENGER, null);
        return addItem(expression, new Item(column, null, expression.getJavaType(), isEntityValued(expression)));
    }

    /**
     * The item of an equal expression of the same Java type: Hibernate's {@code equals} compares a function by its
     * name and arguments only, and Criteria may type two calls of one function over one argument differently (its
     * {@code sum} as the argument, {@code sumAsLong} as a Long), each returned in its own type.
     */
    private int existingItem(SqmExpression<?> expression) {
        for (int i = 0; i < itemExpressions.size(); i++) {
            SqmExpression<?> known = itemExpressions.get(i);
            if (known.equals(expression) && Objects.equals(known.getJavaType(), expression.getJavaType())) {
                return i;
            }
        }
        return -1;
    }

    private int addItem(SqmExpression<?> expression, Item item) {
        itemExpressions.add(expression);
        items.add(item);
        return items.size() - 1;
    }

    private int addColumn(SqmExpression<?> shardExpression, Combine how, PartialMerge merge) {
        columns.add(shardExpression);
        combine.add(how);
        partials.add(merge);
        return columns.size() - 1;
    }

    // ---- what an aggregate asks for

    @Override
    public int partial(SqmExpression<?> shardExpression, PartialMerge merge) {
        return addColumn(shardExpression, Combine.PARTIAL, merge);
    }

    @Override
    public int distinctValues(AggregateCall call) {
        if (call.filtered()) {
            throw new UnsupportedFanOutQueryException(call.name() + "(distinct ...) with a FILTER clause",
                    "Move the filter condition into the WHERE clause.");
        }
        SqmExpression<?> argument = call.argument();
        if (argument instanceof SqmStar || isEntityValued(argument)
                || argument.getClass().getSimpleName().contains("Tuple")) {
            throw new UnsupportedFanOutQueryException("an aggregate over DISTINCT " + argument.toHqlString(),
                    "Aggregate over DISTINCT values of one basic attribute (for example count(distinct"
                            + " e.id)).");
        }
        int known = distinctArguments.indexOf(argument);
        if (known >= 0) {
            return distinctArgumentColumns.get(known);
        }
        distinctArguments.add(argument);
        strings.equality(argument, "an aggregate over DISTINCT");
        distinctArgumentColumns.add(addColumn(copy(argument), Combine.DISTINCT_ARGUMENT, null));
        return distinctArgumentColumns.get(distinctArgumentColumns.size() - 1);
    }

    @Override
    public SqmExpression<?> copy(SqmExpression<?> expression) {
        return expression.copy(copyContext);
    }

    @Override
    public NodeBuilder nodeBuilder() {
        return nodeBuilder;
    }

    @Override
    public boolean enumByName(SqmExpression<?> expression) {
        return StringComparisons.enumByName(expression);
    }

    @Override
    public void ordersValues(String function, SqmExpression<?> argument) {
        strings.orderingOfArgument(function, argument);
    }
}
