package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.criteria.Predicate.BooleanOperator;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.predicate.SqmBetweenPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmComparisonPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmGroupedPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmInListPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmJunctionPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmNegatedPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmNullnessPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmPredicate;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * The planning step of an aggregating query: the groups' keys (each shard groups by them, the merge re-groups the
 * shards' groups), the values a merged group shows, and HAVING, which the merge evaluates on the merged groups
 * (each shard's groups are partial, so a shard cannot apply it).
 */
final class Grouping {

    private final MergeColumns columns;
    private final StringComparisons strings;

    Grouping(MergeColumns columns, StringComparisons strings) {
        this.columns = columns;
        this.strings = strings;
    }

    /** Whether the query aggregates: GROUP BY, HAVING, or an aggregate in the selection or ORDER BY. */
    static boolean aggregates(SqmQuerySpec<?> spec, Projection projection, List<SqmExpression<?>> groupBy) {
        return !groupBy.isEmpty() || spec.getHavingClausePredicate() != null
                || projection.leaves().stream().anyMatch(AggregateFinder::containsAggregate)
                || spec.getSortSpecifications().stream().map(SqmSortSpecification::getSortExpression)
                .anyMatch(sort -> AggregateFinder.containsAggregate(projection.resolve(sort)));
    }

    /** Plans the group keys; returns the items of the selected values. */
    int[] plan(List<SqmExpression<?>> groupBy, List<SqmExpression<?>> leaves) {
        for (SqmExpression<?> expression : groupBy) {
            columns.aggregatingItem(expression, true);
            strings.equality(expression, "GROUP BY");
        }
        int[] visible = new int[leaves.size()];
        for (int i = 0; i < leaves.size(); i++) {
            visible[i] = columns.aggregatingItem(leaves.get(i), false);
        }
        return visible;
    }

    /** The HAVING predicate as the merge evaluates it, or null without one. */
    HavingCondition having(SqmPredicate having) {
        return having == null ? null : condition(having);
    }

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
            return junction.getOperator() == BooleanOperator.AND
                    ? new HavingCondition.And(parts) : new HavingCondition.Or(parts);
        }
        if (predicate instanceof SqmComparisonPredicate comparison) {
            strings.havingComparison(predicate, comparison.getLeftHandExpression(),
                    comparison.getRightHandExpression());
            return new HavingCondition.Comparison(operand(comparison.getLeftHandExpression()),
                    comparison.getSqmOperator(), operand(comparison.getRightHandExpression()));
        }
        if (predicate instanceof SqmBetweenPredicate between) {
            strings.havingComparison(predicate, between.getExpression());
            return new HavingCondition.Between(operand(between.getExpression()), operand(between.getLowerBound()),
                    operand(between.getUpperBound()));
        }
        if (predicate instanceof SqmInListPredicate<?> in) {
            strings.havingComparison(predicate, in.getTestExpression());
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
        int item = columns.aggregatingItem(expression, false);
        return (items, bindings) -> items[item];
    }
}
