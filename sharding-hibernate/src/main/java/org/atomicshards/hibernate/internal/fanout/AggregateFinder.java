package org.atomicshards.hibernate.internal.fanout;

import org.hibernate.query.sqm.spi.BaseSemanticQueryWalker;
import org.hibernate.query.sqm.tree.expression.SqmAggregateFunction;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.select.SqmSubQuery;

/** Finds aggregate functions in an expression (not inside subqueries, whose aggregates are their own). */
final class AggregateFinder extends BaseSemanticQueryWalker {

    private boolean found;

    private AggregateFinder() {
    }

    static boolean isAggregate(SqmExpression<?> expression) {
        return expression instanceof SqmAggregateFunction<?>;
    }

    static boolean containsAggregate(SqmExpression<?> expression) {
        AggregateFinder finder = new AggregateFinder();
        expression.accept(finder);
        return finder.found;
    }

    @Override
    public Object visitFunction(SqmFunction<?> function) {
        if (function instanceof SqmAggregateFunction<?>) {
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
