package org.atomicshards.hibernate.internal.fanout;

import java.util.List;

import org.hibernate.query.sqm.spi.BaseSemanticQueryWalker;
import org.hibernate.query.sqm.tree.expression.SqmAliasedNodeRef;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * Walks a whole statement, its subqueries included; positions and aliases in ORDER BY and GROUP BY refer to
 * selections (which it walks where they are selected), so it does not walk them there.
 */
abstract class StatementWalker extends BaseSemanticQueryWalker {

    @Override
    public Object visitSortSpecification(SqmSortSpecification sort) {
        return sort.getSortExpression() instanceof SqmAliasedNodeRef ? sort : super.visitSortSpecification(sort);
    }

    @Override
    public Object visitGroupByClause(List<SqmExpression<?>> expressions) {
        for (SqmExpression<?> expression : expressions) {
            if (!(expression instanceof SqmAliasedNodeRef)) {
                expression.accept(this);
            }
        }
        return expressions;
    }
}
