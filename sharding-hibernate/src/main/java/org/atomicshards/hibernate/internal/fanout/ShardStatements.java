package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashMap;
import java.util.Map;

import org.hibernate.query.sqm.SqmQuerySource;
import org.hibernate.query.sqm.spi.BaseSemanticQueryWalker;
import org.hibernate.query.sqm.tree.cte.SqmCteStatement;
import org.hibernate.query.sqm.tree.expression.SqmNamedParameter;
import org.hibernate.query.sqm.tree.expression.SqmPositionalParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * Makes a rewritten shard statement declare exactly the parameters its tree still uses.
 *
 * <p>Why: a statement parsed from HQL declares the parameters the parser met, and {@code copy} keeps that list even
 * when the planner removes the clauses that used some of them (HAVING, ORDER BY, OFFSET/FETCH). Hibernate's query
 * plan cache keys a statement by its structure ({@code SqmStatement#isCompatible}), not by its declared parameters,
 * and the cached plan binds the parameters declared by the statement that created it. Two shard statements of the
 * same shape, one still declaring a removed parameter, would share one plan, and the other would fail with "reference
 * is not a parameter of this query". A criteria statement needs nothing: Hibernate collects its parameters from the
 * tree.
 */
final class ShardStatements {

    private ShardStatements() {
    }

    /** The statement, or an equal one that declares only the parameters found in its tree. */
    static <T> SqmSelectStatement<T> declaringUsedParameters(SqmSelectStatement<T> rewritten) {
        if (rewritten.getQuerySource() == SqmQuerySource.CRITERIA) {
            return rewritten;
        }
        Map<String, SqmCteStatement<?>> ctes = new LinkedHashMap<>();
        for (SqmCteStatement<?> cte : rewritten.getCteStatements()) {
            ctes.put(cte.getName(), cte);
        }
        SqmSelectStatement<T> declared = new SqmSelectStatement<>(rewritten.getQueryPart(), rewritten.getResultType(),
                ctes, rewritten.getQuerySource(), rewritten.nodeBuilder());
        declared.accept(new BaseSemanticQueryWalker() {
            @Override
            public Object visitNamedParameterExpression(SqmNamedParameter<?> expression) {
                declared.addParameter(expression);
                return expression;
            }

            @Override
            public Object visitPositionalParameterExpression(SqmPositionalParameter<?> expression) {
                declared.addParameter(expression);
                return expression;
            }
        });
        return declared;
    }
}
