package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashSet;
import java.util.List;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.metamodel.mapping.JdbcMapping;
import org.hibernate.query.sqm.tree.SqmTypedNode;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.expression.SqmDistinct;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.predicate.SqmPredicate;
import org.hibernate.type.SqlTypes;

/**
 * The planning step of collation checks: records, as the query spells them, the places where the merge orders
 * strings (ORDER BY, MIN/MAX, HAVING comparisons) and where it matches strings for equality (GROUP BY, DISTINCT
 * keys, aggregates over DISTINCT values); {@link StringComparisonCheck} holds them against the targets'
 * collations before the query runs. Also knows which enums the database orders by name.
 */
final class StringComparisons {

    private final LinkedHashSet<String> orderings = new LinkedHashSet<>();
    private final LinkedHashSet<String> equalities = new LinkedHashSet<>();

    List<String> orderings() {
        return List.copyOf(orderings);
    }

    List<String> equalities() {
        return List.copyOf(equalities);
    }

    /** Records that the merge orders {@code value}'s values, if they are strings or enums stored by name. */
    void ordering(SqmExpression<?> value, String clause) {
        if (ordersAsString(value)) {
            orderings.add(clause + " " + value.toHqlString());
        }
    }

    /** As {@link #ordering} for the argument of MIN or MAX, named as {@code max(p.category)}. */
    void orderingOfArgument(String function, SqmExpression<?> argument) {
        if (ordersAsString(argument)) {
            orderings.add(function + "(" + argument.toHqlString() + ")");
        }
    }

    /** Records that the merge matches {@code value}'s values for equality, if they are strings. */
    void equality(SqmExpression<?> value, String clause) {
        if (isText(value)) {
            equalities.add(clause + " " + value.toHqlString());
        }
    }

    /** Records a HAVING comparison whose operands (other than literals and parameters) are strings. */
    void havingComparison(SqmPredicate predicate, SqmExpression<?>... operands) {
        for (SqmExpression<?> operand : operands) {
            if (!(operand instanceof SqmLiteral<?>) && !(operand instanceof SqmParameter<?>)
                    && ordersAsString(operand)) {
                orderings.add("HAVING " + predicate.toHqlString());
                return;
            }
        }
    }

    /** Whether the expression's values are character strings (compared by the database's collation). */
    static boolean isText(SqmExpression<?> expression) {
        Class<?> type = expression.getJavaType();
        return type == String.class || type == Character.class || type == char.class;
    }

    /** Whether the merge orders this expression's values as strings: text, or enums stored by name. */
    private static boolean ordersAsString(SqmExpression<?> expression) {
        return isText(expression) || enumByName(expression);
    }

    /**
     * Whether the database orders this enum-typed expression by name (a character column) rather than by
     * declaration order (an ordinal or a native enum column); false for anything that is not an enum.
     */
    static boolean enumByName(SqmExpression<?> expression) {
        Class<?> type = expression.getJavaType();
        if (type == null || !type.isEnum()) {
            return false;
        }
        if (AggregateFinder.isAggregate(expression) && expression instanceof SqmFunction<?> function
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
}
