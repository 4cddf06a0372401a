package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.persistence.Tuple;
import jakarta.persistence.TupleElement;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Nulls;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.dialect.NullOrdering;
import org.hibernate.query.SortDirection;
import org.hibernate.query.common.FetchClauseType;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.expression.SqmAggregateFunction;
import org.hibernate.query.sqm.tree.expression.SqmAliasedNodeRef;
import org.hibernate.query.sqm.tree.expression.SqmDistinct;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.expression.SqmStar;
import org.hibernate.query.sqm.tree.SqmTypedNode;
import org.hibernate.metamodel.mapping.JdbcMapping;
import org.hibernate.type.SqlTypes;
import org.hibernate.query.sqm.tree.predicate.SqmBetweenPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmComparisonPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmGroupedPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmInListPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmJunctionPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmNegatedPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmNullnessPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmPredicate;
import org.hibernate.query.sqm.tree.select.SqmDynamicInstantiation;
import org.hibernate.query.sqm.tree.select.SqmDynamicInstantiationArgument;
import org.hibernate.query.sqm.tree.select.SqmJpaCompoundSelection;
import org.hibernate.query.sqm.tree.select.SqmOrderByClause;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectClause;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSelectableNode;
import org.hibernate.query.sqm.tree.select.SqmSelection;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

import org.atomicshards.hibernate.internal.fanout.MergePlan.Aggregate;
import org.atomicshards.hibernate.internal.fanout.MergePlan.Combine;
import org.atomicshards.hibernate.internal.fanout.MergePlan.Item;
import org.atomicshards.hibernate.internal.fanout.MergePlan.SortKey;

/**
 * Plans how a query runs on each shard and how the rows merge (see {@link MergePlan}). Rejects, before any shard
 * is queried, every construct whose merge would not equal one database's answer
 * ({@link QueryRestrictions}), naming it.
 *
 * <p>Rewrites, on a copy of the query tree: the SELECT list becomes the flat list of columns the merge needs
 * (ORDER BY keys that are not selected are added); AVG becomes SUM and COUNT; an aggregate over DISTINCT values
 * adds its argument to the shard's GROUP BY (so each shard returns the distinct values, which the merge counts or
 * adds once); HAVING, ORDER BY and DISTINCT of an aggregating query are removed from the shard query and applied
 * to the merged groups; OFFSET/FETCH in the tree are removed (paging is applied once, after the merge).
 */
final class MergePlanner {

    private static final Set<String> MERGEABLE_AGGREGATES = Set.of("count", "sum", "min", "max", "avg");

    private final QueryRestrictions restrictions;
    private final NullOrdering dialectNullOrdering;
    private final Nulls defaultNulls;
    private final Set<Class<?>> entityTypes;
    private final SelectedRowPaths rowPaths;

    MergePlanner(QueryRestrictions restrictions, NullOrdering dialectNullOrdering,
                 Nulls defaultNulls, Set<Class<?>> entityTypes, SelectedRowPaths rowPaths) {
        this.restrictions = restrictions;
        this.dialectNullOrdering = dialectNullOrdering;
        this.defaultNulls = defaultNulls;
        this.entityTypes = entityTypes;
        this.rowPaths = rowPaths;
    }

    MergePlan plan(SqmSelectStatement<?> statement) {
        restrictions.check(statement);
        return new Planning(statement).plan();
    }

    static boolean isAggregate(SqmExpression<?> expression) {
        return expression instanceof SqmAggregateFunction<?>;
    }

    /** The state of planning one statement. */
    private final class Planning {

        private final SqmSelectStatement<?> original;
        private final SqmQuerySpec<?> spec;
        private final NodeBuilder nodeBuilder;
        private final SqmCopyContext copyContext = SqmCopyContext.noParamCopyContext();
        private final SqmSelectStatement<Object[]> shardStatement;
        private final List<SqmExpression<?>> columns = new ArrayList<>();
        private final List<Combine> combine = new ArrayList<>();
        private final List<Item> items = new ArrayList<>();
        private final List<SqmExpression<?>> itemExpressions = new ArrayList<>();
        private final List<SqmExpression<?>> leaves = new ArrayList<>();
        private final Set<Integer> enumByNameColumns = new java.util.HashSet<>();
        private final List<SqmExpression<?>> distinctArguments = new ArrayList<>();
        private final List<Integer> distinctArgumentColumns = new ArrayList<>();
        private boolean aggregating;
        private final java.util.LinkedHashSet<String> stringOrderings = new java.util.LinkedHashSet<>();
        private final java.util.LinkedHashSet<String> stringEqualities = new java.util.LinkedHashSet<>();

        Planning(SqmSelectStatement<?> original) {
            this.original = original;
            this.spec = original.getQuerySpec();
            this.nodeBuilder = original.nodeBuilder();
            this.shardStatement = original.createCopy(copyContext, Object[].class);
        }

        MergePlan plan() {
            ResultShape shape = collectLeavesAndShape();
            List<SqmExpression<?>> groupBy = new ArrayList<>();
            for (SqmExpression<?> expression : spec.getGroupByClauseExpressions()) {
                groupBy.add(resolveAlias(expression));
            }
            List<SqmSortSpecification> sorts = spec.getSortSpecifications();
            SqmPredicate having = spec.getHavingClausePredicate();
            aggregating = !groupBy.isEmpty() || having != null || leaves.stream().anyMatch(this::containsAggregate)
                    || sorts.stream().anyMatch(sort -> containsAggregate(resolveAlias(sort.getSortExpression())));
            boolean distinct = spec.getSelectClause().isDistinct();

            int[] visible;
            List<SortKey> sortKeys = new ArrayList<>();
            HavingCondition havingCondition = null;
            if (aggregating) {
                for (SqmExpression<?> expression : groupBy) {
                    aggregatingItem(expression, true);
                    if (isText(expression)) {
                        stringEqualities.add("GROUP BY " + expression.toHqlString());
                    }
                }
                visible = new int[leaves.size()];
                for (int i = 0; i < leaves.size(); i++) {
                    visible[i] = aggregatingItem(leaves.get(i), false);
                }
                for (SqmSortSpecification sort : sorts) {
                    SqmExpression<?> expression = sortExpression(sort);
                    sortKeys.add(sortKey(sort, aggregatingItem(expression, false), expression));
                }
                if (having != null) {
                    havingCondition = condition(having);
                }
            }
            else {
                visible = new int[leaves.size()];
                for (int i = 0; i < leaves.size(); i++) {
                    visible[i] = plainItem(leaves.get(i), distinct, true);
                    if (distinct && isText(leaves.get(i))) {
                        stringEqualities.add("SELECT DISTINCT " + leaves.get(i).toHqlString());
                    }
                }
                for (SqmSortSpecification sort : sorts) {
                    SqmExpression<?> expression = sortExpression(sort);
                    sortKeys.add(sortKey(sort, plainItem(expression, distinct, false), expression));
                }
            }
            rewriteShardStatement(distinct, groupBy);
            boolean global = aggregating && groupBy.isEmpty();
            boolean[] byName = new boolean[columns.size()];
            enumByNameColumns.forEach(column -> byName[column] = true);
            return new MergePlan(ShardStatements.declaringUsedParameters(shardStatement), combine.toArray(new Combine[0]), byName, aggregating, global, items,
                    visible,
                    sortKeys, havingCondition, distinct, shape, spec.getOffsetExpression(), fetchExpression(),
                    List.copyOf(stringOrderings), List.copyOf(stringEqualities));
        }

        /** Whether the expression's values are character strings (compared by the database's collation). */
        private boolean isText(SqmExpression<?> expression) {
            Class<?> type = expression.getJavaType();
            return type == String.class || type == Character.class || type == char.class;
        }

        /** Whether the merge orders this expression's values as strings: text, or enums stored by name. */
        private boolean ordersAsString(SqmExpression<?> expression) {
            return isText(expression) || enumByName(expression);
        }

        private void recordHavingOnText(SqmPredicate predicate, SqmExpression<?>... operands) {
            for (SqmExpression<?> operand : operands) {
                if (!(operand instanceof SqmLiteral<?>) && !(operand instanceof SqmParameter<?>)
                        && ordersAsString(operand)) {
                    stringOrderings.add("HAVING " + predicate.toHqlString());
                    return;
                }
            }
        }

        private SqmExpression<?> fetchExpression() {
            if (spec.getFetchExpression() != null && spec.getFetchClauseType() != FetchClauseType.ROWS_ONLY) {
                throw new UnsupportedFanOutQueryException("FETCH " + spec.getFetchClauseType(),
                        "Only FETCH FIRST n ROWS ONLY (LIMIT) can be merged; use setMaxResults.");
            }
            return spec.getFetchExpression();
        }

        // ---- the selection and the shape of the result

        private ResultShape collectLeavesAndShape() {
            List<SqmSelection<?>> selections = spec.getSelectClause().getSelections();
            Class<?> resultType = original.getResultType();
            if (selections.isEmpty()) {
                if (spec.getRootList().size() != 1) {
                    throw new UnsupportedFanOutQueryException("a query without a SELECT clause and "
                            + spec.getRootList().size() + " roots", "Name the selection explicitly.");
                }
                leaves.add(spec.getRootList().get(0));
                return wrapSingle(resultType, spec.getRootList().get(0));
            }
            if (selections.size() == 1) {
                SqmSelectableNode<?> node = selections.get(0).getSelectableNode();
                if (node instanceof SqmDynamicInstantiation<?> instantiation) {
                    return instantiation(instantiation);
                }
                if (node instanceof SqmJpaCompoundSelection<?> compound) {
                    List<TupleElement<?>> elements = new ArrayList<>();
                    for (SqmSelectableNode<?> item : compound.getSelectionItems()) {
                        leaves.add(leaf(item));
                        elements.add(item);
                    }
                    Class<?> type = compound.getJavaType();
                    if (type != null && Tuple.class.isAssignableFrom(type)) {
                        return ResultShapes.tuple(elements);
                    }
                    if (type != null && type.isArray() && type != Object[].class) {
                        return ResultShapes.typedArray(type.getComponentType());
                    }
                    return ResultShapes.array();
                }
                leaves.add(leaf(node));
                return wrapSingle(resultType, node);
            }
            List<TupleElement<?>> elements = new ArrayList<>();
            List<String> aliases = new ArrayList<>();
            List<Class<?>> types = new ArrayList<>();
            for (SqmSelection<?> selection : selections) {
                SqmSelectableNode<?> node = selection.getSelectableNode();
                leaves.add(leaf(node));
                elements.add(node);
                aliases.add(selection.getAlias());
                types.add(node.getJavaType());
            }
            return multiple(resultType, elements, aliases, types);
        }

        private ResultShape wrapSingle(Class<?> resultType, SqmSelectableNode<?> node) {
            if (resultType == Object[].class) {
                return ResultShapes.array();
            }
            if (resultType != null && Tuple.class.isAssignableFrom(resultType)) {
                return ResultShapes.tuple(List.of(node));
            }
            return ResultShapes.single();
        }

        private ResultShape multiple(Class<?> resultType, List<TupleElement<?>> elements, List<String> aliases,
                                     List<Class<?>> types) {
            if (resultType == null || resultType == Object.class || resultType == Object[].class) {
                return ResultShapes.array();
            }
            if (Tuple.class.isAssignableFrom(resultType)) {
                return ResultShapes.tuple(elements);
            }
            if (resultType == List.class) {
                return ResultShapes.list();
            }
            if (resultType == Map.class) {
                return ResultShapes.map(aliases);
            }
            if (resultType.isArray()) {
                return ResultShapes.typedArray(resultType.getComponentType());
            }
            return ResultShapes.constructor(resultType, types);
        }

        private ResultShape instantiation(SqmDynamicInstantiation<?> instantiation) {
            List<Class<?>> types = new ArrayList<>();
            List<String> aliases = new ArrayList<>();
            for (SqmDynamicInstantiationArgument<?> argument : instantiation.getArguments()) {
                SqmSelectableNode<?> node = argument.getSelectableNode();
                leaves.add(leaf(node));
                types.add(node.getJavaType());
                aliases.add(argument.getAlias());
            }
            switch (instantiation.getInstantiationTarget().getNature()) {
                case LIST:
                    return ResultShapes.list();
                case MAP:
                    return ResultShapes.map(aliases);
                default:
                    return ResultShapes.constructor(instantiation.getInstantiationTarget().getJavaType(), types);
            }
        }

        private SqmExpression<?> leaf(SqmSelectableNode<?> node) {
            if (node instanceof SqmExpression<?> expression) {
                return expression;
            }
            throw new UnsupportedFanOutQueryException("nested selection " + node.getClass().getSimpleName(),
                    "Select plain expressions, entities, one tuple/array or one 'new' instantiation.");
        }

        private SqmExpression<?> resolveAlias(SqmExpression<?> expression) {
            if (expression instanceof SqmAliasedNodeRef ref) {
                int index = ref.getPosition() - 1;
                if (index < 0 || index >= leaves.size()) {
                    throw new UnsupportedFanOutQueryException("positional reference " + ref.getPosition(),
                            "Repeat the expression instead of referring to it by position.");
                }
                return leaves.get(index);
            }
            return expression;
        }

        private SqmExpression<?> sortExpression(SqmSortSpecification sort) {
            SqmExpression<?> expression = resolveAlias(sort.getSortExpression());
            if (isEntityValued(expression)) {
                throw new UnsupportedFanOutQueryException("ORDER BY the entity " + expression.getJavaType()
                        .getSimpleName(), "Order by one of its attributes (for example its id).");
            }
            if (sort.isIgnoreCase()) {
                @SuppressWarnings("unchecked")
                Expression<String> text = (Expression<String>) expression;
                return (SqmExpression<?>) nodeBuilder.lower(text);
            }
            return expression;
        }

        private SortKey sortKey(SqmSortSpecification sort, int item, SqmExpression<?> expression) {
            boolean descending = sort.getSortDirection() == SortDirection.DESCENDING;
            Nulls precedence = sort.getNullPrecedence();
            if (precedence == null || precedence == Nulls.NONE) {
                precedence = defaultNulls;
            }
            boolean nullsFirst;
            if (precedence == Nulls.FIRST) {
                nullsFirst = true;
            }
            else if (precedence == Nulls.LAST) {
                nullsFirst = false;
            }
            else {
                switch (dialectNullOrdering) {
                    case FIRST:
                        nullsFirst = true;
                        break;
                    case LAST:
                        nullsFirst = false;
                        break;
                    case SMALLEST:
                        nullsFirst = !descending;
                        break;
                    default:
                        nullsFirst = descending;
                        break;
                }
            }
            if (ordersAsString(expression)) {
                stringOrderings.add("ORDER BY " + expression.toHqlString());
            }
            return new SortKey(item, descending, nullsFirst, enumByName(expression));
        }

        /**
         * Whether the database orders this enum-typed expression by name (a character column) rather than by
         * declaration order (an ordinal or a native enum column); false for anything that is not an enum.
         */
        private boolean enumByName(SqmExpression<?> expression) {
            Class<?> type = expression.getJavaType();
            if (type == null || !type.isEnum()) {
                return false;
            }
            if (isAggregate(expression) && expression instanceof SqmFunction<?> function
                    && function.getArguments().size() == 1) {
                // MIN/MAX of an enum orders like its argument.
                SqmTypedNode<?> argument = function.getArguments().get(0);
                SqmTypedNode<?> value = argument instanceof SqmDistinct<?> d ? d.getExpression() : argument;
                if (value instanceof SqmExpression<?> inner && inner != expression) {
                    return enumByName(inner);
                }
            }
            Object pathType = expression instanceof SqmPath<?> path ? path.getReferencedPathSource().getPathType()
                    : null;
            if (pathType instanceof JdbcMapping mapping) {
                int code = mapping.getJdbcType().getDefaultSqlTypeCode();
                // Native ENUM types order by their declared values, which Hibernate declares sorted by name (as a
                // character column would order them); ordinal enums order by declaration.
                if (SqlTypes.isCharacterType(code) || code == SqlTypes.ENUM || code == SqlTypes.NAMED_ENUM) {
                    return true;
                }
                if (SqlTypes.isIntegral(code) || code == SqlTypes.ORDINAL_ENUM
                        || code == SqlTypes.NAMED_ORDINAL_ENUM) {
                    return false;
                }
            }
            throw new UnsupportedFanOutQueryException("ORDER BY, MIN or MAX of the enum expression "
                    + expression.toHqlString() + " whose column type is not known",
                    "Order by an enum attribute mapped as a string or an ordinal.");
        }

        // ---- items

        private int existingItem(SqmExpression<?> expression) {
            for (int i = 0; i < itemExpressions.size(); i++) {
                if (itemExpressions.get(i).equals(expression)) {
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

        private int addColumn(SqmExpression<?> shardExpression, Combine how) {
            columns.add(shardExpression);
            combine.add(how);
            return columns.size() - 1;
        }

        private SqmExpression<?> copy(SqmExpression<?> expression) {
            return expression.copy(copyContext);
        }

        private boolean isEntityValued(SqmExpression<?> expression) {
            return expression.getJavaType() != null && entityTypes.contains(expression.getJavaType());
        }

        private int plainItem(SqmExpression<?> expression, boolean distinct, boolean selected) {
            int existing = existingItem(expression);
            if (existing >= 0) {
                return existing;
            }
            if (!selected && distinct && !dependsOnSelectedEntity(expression)) {
                throw new UnsupportedFanOutQueryException("ORDER BY an expression that is not in the SELECT DISTINCT"
                        + " list", "Select the ORDER BY expression too (databases require it for DISTINCT).");
            }
            int column = addColumn(copy(expression), Combine.KEY);
            return addItem(expression, new Item(column, null, -1, false, expression.getJavaType(),
                    isEntityValued(expression)));
        }

        /**
         * A value of a selected entity's own row (an attribute, an embedded attribute, a to-one's foreign key):
         * adding it as a column does not change which rows are distinct.
         */
        private boolean dependsOnSelectedEntity(SqmExpression<?> expression) {
            return expression instanceof SqmPath<?> path
                    && rowPaths.readsRowOf(path, owner -> leaves.stream().anyMatch(leaf -> leaf.equals(owner)));
        }

        private int aggregatingItem(SqmExpression<?> expression, boolean groupKey) {
            int existing = existingItem(expression);
            if (existing >= 0) {
                Item item = items.get(existing);
                if (groupKey && item.aggregate() == null) {
                    combine.set(item.column(), Combine.KEY);
                }
                return existing;
            }
            if (isAggregate(expression)) {
                return aggregateItem((SqmFunction<?>) expression);
            }
            if (containsAggregate(expression)) {
                throw new UnsupportedFanOutQueryException("an expression over an aggregate ("
                        + expression.toHqlString() + ")", "Select the aggregates themselves and compute the"
                        + " expression from the merged values.");
            }
            int column = addColumn(copy(expression), groupKey ? Combine.KEY : Combine.PASSENGER);
            return addItem(expression, new Item(column, null, -1, false, expression.getJavaType(),
                    isEntityValued(expression)));
        }

        private int aggregateItem(SqmFunction<?> function) {
            String name = function.getFunctionName().toLowerCase(Locale.ROOT);
            if (!MERGEABLE_AGGREGATES.contains(name)) {
                throw new UnsupportedFanOutQueryException("the aggregate function " + name + "()",
                        "Only count, sum, min, max and avg can be merged across shards.");
            }
            SqmAggregateFunction<?> aggregate = (SqmAggregateFunction<?>) function;
            boolean distinct = function.getArguments().size() == 1
                    && function.getArguments().get(0) instanceof SqmDistinct<?>;
            Class<?> javaType = function.getJavaType();
            if (distinct && !name.equals("min") && !name.equals("max")) {
                if (aggregate.getFilter() != null) {
                    throw new UnsupportedFanOutQueryException(name + "(distinct ...) with a FILTER clause",
                            "Move the filter condition into the WHERE clause.");
                }
                SqmExpression<?> argument = ((SqmDistinct<?>) function.getArguments().get(0)).getExpression();
                int column = distinctArgumentColumn(argument);
                return addItem(function, new Item(column, Aggregate.valueOf(name.toUpperCase(Locale.ROOT)), -1,
                        true, javaType, false));
            }
            switch (name) {
                case "count":
                    return addItem(function, new Item(addColumn(copy(function), Combine.COUNT), Aggregate.COUNT, -1,
                            false, javaType, false));
                case "sum":
                    return addItem(function, new Item(addColumn(copy(function), Combine.SUM), Aggregate.SUM, -1,
                            false, javaType, false));
                case "min":
                case "max": {
                    int column = addColumn(copy(function), name.equals("min") ? Combine.MIN : Combine.MAX);
                    SqmTypedNode<?> argument = function.getArguments().get(0);
                    SqmExpression<?> value = argument instanceof SqmDistinct<?> d ? d.getExpression()
                            : (SqmExpression<?>) argument;
                    if (enumByName(value)) {
                        enumByNameColumns.add(column);
                    }
                    if (ordersAsString(value)) {
                        stringOrderings.add(name + "(" + value.toHqlString() + ")");
                    }
                    return addItem(function, new Item(column, name.equals("min") ? Aggregate.MIN : Aggregate.MAX,
                            -1, false, javaType, false));
                }
                default:
                    return averageItem(function, aggregate, javaType);
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private int averageItem(SqmFunction<?> function, SqmAggregateFunction<?> aggregate, Class<?> javaType) {
            if (aggregate.getFilter() != null) {
                throw new UnsupportedFanOutQueryException("avg(...) with a FILTER clause",
                        "Move the filter condition into the WHERE clause.");
            }
            SqmExpression argument = copy((SqmExpression<?>) function.getArguments().get(0));
            int sum = addColumn((SqmExpression<?>) nodeBuilder.sum(argument), Combine.SUM);
            int count = addColumn((SqmExpression<?>) nodeBuilder.count(argument), Combine.COUNT);
            return addItem(function, new Item(sum, Aggregate.AVG, count, false, javaType, false));
        }

        private int distinctArgumentColumn(SqmExpression<?> argument) {
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
            if (isText(argument)) {
                stringEqualities.add("an aggregate over DISTINCT " + argument.toHqlString());
            }
            distinctArgumentColumns.add(addColumn(copy(argument), Combine.DISTINCT_ARGUMENT));
            return distinctArgumentColumns.get(distinctArgumentColumns.size() - 1);
        }

        private boolean containsAggregate(SqmExpression<?> expression) {
            AggregateFinder finder = new AggregateFinder();
            expression.accept(finder);
            return finder.found;
        }

        // ---- HAVING

        private HavingCondition condition(SqmPredicate predicate) {
            if (predicate instanceof SqmGroupedPredicate grouped) {
                return condition(grouped.getSubPredicate());
            }
            if (predicate instanceof SqmNegatedPredicate negated) {
                return new HavingCondition.Not(condition(negated.getWrappedPredicate()));
            }
            HavingCondition condition = positiveCondition(predicate);
            return predicate.isNegated() ? new HavingCondition.Not(condition) : condition;
        }

        private HavingCondition positiveCondition(SqmPredicate predicate) {
            if (predicate instanceof SqmJunctionPredicate junction) {
                List<HavingCondition> parts = new ArrayList<>();
                for (SqmPredicate part : junction.getPredicates()) {
                    parts.add(condition(part));
                }
                return junction.getOperator() == jakarta.persistence.criteria.Predicate.BooleanOperator.AND
                        ? new HavingCondition.And(parts) : new HavingCondition.Or(parts);
            }
            if (predicate instanceof SqmComparisonPredicate comparison) {
                recordHavingOnText(predicate, comparison.getLeftHandExpression(),
                        comparison.getRightHandExpression());
                return new HavingCondition.Comparison(operand(comparison.getLeftHandExpression()),
                        comparison.getSqmOperator(), operand(comparison.getRightHandExpression()));
            }
            if (predicate instanceof SqmBetweenPredicate between) {
                recordHavingOnText(predicate, between.getExpression());
                return new HavingCondition.Between(operand(between.getExpression()), operand(between.getLowerBound()),
                        operand(between.getUpperBound()));
            }
            if (predicate instanceof SqmInListPredicate<?> in) {
                recordHavingOnText(predicate, in.getTestExpression());
                List<HavingCondition.Operand> list = new ArrayList<>();
                for (SqmExpression<?> element : in.getListExpressions()) {
                    list.add(operand(element));
                }
                return new HavingCondition.In(operand(in.getTestExpression()), list);
            }
            if (predicate instanceof SqmNullnessPredicate nullness) {
                return new HavingCondition.IsNull(operand(nullness.getExpression()));
            }
            throw new UnsupportedFanOutQueryException("the HAVING predicate " + predicate.getClass().getSimpleName()
                    .replace("Sqm", "").replace("Predicate", "") + " (" + predicate.toHqlString() + ")",
                    "HAVING across shards supports comparisons, BETWEEN, IN, IS NULL, AND, OR and NOT.");
        }

        private HavingCondition.Operand operand(SqmExpression<?> expression) {
            if (expression instanceof SqmLiteral<?> literal) {
                Object value = literal.getLiteralValue();
                return (items, bindings) -> value;
            }
            if (expression instanceof SqmParameter<?> parameter) {
                return (items, bindings) -> {
                    Object value = bindings.valueOf(parameter);
                    return value == ParameterBindings.UNBOUND ? null : value;
                };
            }
            int item = aggregatingItem(expression, false);
            return (items, bindings) -> items[item];
        }

        // ---- the shard statement

        @SuppressWarnings({"unchecked", "rawtypes"})
        private void rewriteShardStatement(boolean distinct, List<SqmExpression<?>> groupBy) {
            SqmQuerySpec<Object[]> shardSpec = shardStatement.getQuerySpec();
            SqmSelectClause select = new SqmSelectClause(!aggregating && distinct, columns.size(), nodeBuilder);
            for (SqmExpression<?> column : columns) {
                select.addSelection(new SqmSelection(column, nodeBuilder));
            }
            shardSpec.setSelectClause(select);
            shardSpec.setOffsetExpression(null);
            shardSpec.setFetchExpression(null);
            if (aggregating) {
                List<SqmExpression<?>> shardGroupBy = new ArrayList<>();
                for (SqmExpression<?> expression : groupBy) {
                    shardGroupBy.add(copy(expression));
                }
                for (int column : distinctArgumentColumns) {
                    shardGroupBy.add(columns.get(column));
                }
                shardSpec.setGroupByClauseExpressions(shardGroupBy);
                shardSpec.setHavingClausePredicate(null);
                shardSpec.setOrderByClause(null);
            }
            else if (!spec.getSortSpecifications().isEmpty()) {
                // Positions and aliases in ORDER BY refer to the user's SELECT list, which the shard query replaced.
                SqmOrderByClause orderBy = new SqmOrderByClause(spec.getSortSpecifications().size());
                for (SqmSortSpecification sort : spec.getSortSpecifications()) {
                    orderBy.addSortSpecification(new SqmSortSpecification(copy(resolveAlias(sort.getSortExpression())),
                            sort.getSortDirection(), sort.getNullPrecedence(), sort.isIgnoreCase()));
                }
                shardSpec.setOrderByClause(orderBy);
            }
        }
    }

    /** Finds aggregate functions in an expression (not inside subqueries, whose aggregates are their own). */
    private static final class AggregateFinder extends org.hibernate.query.sqm.spi.BaseSemanticQueryWalker {
        boolean found;

        @Override
        public Object visitFunction(SqmFunction<?> function) {
            if (function instanceof SqmAggregateFunction<?>) {
                found = true;
                return function;
            }
            return super.visitFunction(function);
        }

        @Override
        public Object visitSubQueryExpression(org.hibernate.query.sqm.tree.select.SqmSubQuery<?> subQuery) {
            return subQuery;
        }
    }
}
