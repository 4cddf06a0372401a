package org.atomicshards.hibernate.internal.fanout;

import org.hibernate.query.sqm.spi.BaseSemanticQueryWalker;
import org.hibernate.query.sqm.tree.expression.SqmAggregateFunction;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSubQuery;

/** Finds aggregate functions in an expression or a statement (not inside subqueries, whose aggregates are their own). */
final class AggregateFinder extends BaseSemanticQueryWalker {

    private final String name;
    private boolean found;

    private AggregateFinder(String name) {
        this.name = name;
    }

    private AggregateFinder() {
        this(null);
    }

    static boolean isAggregate(SqmExpression<?> expression) {
        return expression instanceof SqmAggregateFunction<?>;
    }

    static boolean containsAggregate(SqmExpression<?> expression) {
        AggregateFinder finder = new AggregateFinder();
        expression.accept(finder);
        return finder.found;
    }

    /** Whether {@code statement} calls the aggregate function {@code name} anywhere but in a subquery. */
    static boolean callsAggregate(SqmSelectStatement<?> statement, String name) {
        AggregateFinder finder = new AggregateFinder(name);
        statement.accept(finder);
        return finder.found;
    }

    @Override
    public Object visitFunction(SqmFunction<?> function) {
        if (function instanceof SqmAggregateFunction<?>
                && (name == null || name.equalsIgnoreCase(function.getFunctionName()))) {
            found = true;
            return function;
        }
        return super.visitFunction(function);
    }

    @Override
    public Object visitSubQueryExpression(SqmSubQuery<?> subQuery) {
        return subQuery;
    }
}
