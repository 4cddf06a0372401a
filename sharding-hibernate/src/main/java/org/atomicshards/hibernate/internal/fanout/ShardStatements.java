package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashMap;
import java.util.Map;

import org.hibernate.query.sqm.SqmQuerySource;
import org.hibernate.query.sqm.spi.BaseSemanticQueryWalker;
import org.hibernate.query.sqm.tree.cte.SqmCteStatement;
import org.hibernate.query.sqm.tree.expression.SqmNamedParameter;
import org.hibernate.query.sqm.tree.expression.SqmPositionalParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * What a statement the shards run needs so that Hibernate's query plan cache serves it the plan of its own query.
 * That cache keys a statement by its structure ({@code SqmStatement#isCompatible} and {@code #cacheHashCode}), and
 * the fan-out opts every shard statement into it, criteria ones included.
 *
 * <p>Declared parameters: a statement parsed from HQL declares the parameters the parser met, and {@code copy} keeps
 * that list even when the planner removes the clauses that used some of them (HAVING, ORDER BY, OFFSET/FETCH). The
 * structure does not include the declared parameters, and the cached plan binds the parameters declared by the
 * statement that created it. Two shard statements of the same shape, one still declaring a removed parameter, would
 * share one plan, and the other would fail with "reference is not a parameter of this query". A criteria statement
 * needs nothing: Hibernate collects its parameters from the tree.
 *
 * <p>Ignore-case sorts: the structure does not include a sort's ignore-case flag either (Hibernate 7.4's
 * {@code SqmSortSpecification}), so a statement sorted ignoring case and the same statement sorted by case share one
 * plan, and whichever ran second runs the first one's SQL: its rows come in the other order, or another row is picked
 * (a subquery's ORDER BY with FETCH). The planner writes the ORDER BY it merges by as {@code lower(x)} instead
 * ({@link ShardStatementRewrite}), which the structure tells apart; a statement that still sorts ignoring case
 * anywhere (in a subquery, or the user's statement run as written on one shard) is not {@link #planCacheable}.
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

    /**
     * Whether Hibernate may serve the statement from its query plan cache: false when a sort anywhere in it (a
     * subquery's ORDER BY, WITHIN GROUP, a window) ignores case, or when its tree cannot be walked.
     */
    static boolean planCacheable(SqmSelectStatement<?> statement) {
        IgnoreCaseSortFinder finder = new IgnoreCaseSortFinder();
        try {
            statement.accept(finder);
        }
        catch (RuntimeException unwalkable) {
            return false;
        }
        return !finder.found;
    }

    /** Looks for a sort that ignores case. */
    private static final class IgnoreCaseSortFinder extends StatementWalker {
        boolean found;

        @Override
        public Object visitSortSpecification(SqmSortSpecification sort) {
            found |= sort.isIgnoreCase();
            return super.visitSortSpecification(sort);
        }
    }
}
