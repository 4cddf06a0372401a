package org.atomicshards.hibernate.internal.fanout;

import java.util.Set;

import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.query.sqm.tree.domain.SqmCorrelation;
import org.hibernate.query.sqm.tree.expression.SqmOver;
import org.hibernate.query.sqm.tree.domain.SqmCteRoot;
import org.hibernate.query.sqm.tree.domain.SqmDerivedRoot;
import org.hibernate.query.sqm.tree.from.SqmAttributeJoin;
import org.hibernate.query.sqm.tree.from.SqmCrossJoin;
import org.hibernate.query.sqm.tree.from.SqmFunctionJoin;
import org.hibernate.query.sqm.tree.from.SqmCteJoin;
import org.hibernate.query.sqm.tree.from.SqmDerivedJoin;
import org.hibernate.query.sqm.tree.from.SqmEntityJoin;
import org.hibernate.query.sqm.tree.from.SqmFrom;
import org.hibernate.query.sqm.tree.from.SqmJoin;
import org.hibernate.query.sqm.tree.from.SqmRoot;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSubQuery;

/**
 * The structural rules a query must meet to run on several shards and be merged exactly. Each shard evaluates
 * joins and subqueries over its own rows only, so anything that would combine rows of different atomic units
 * (a second sharded root, an entity join, an uncorrelated subquery over sharded entities, a window over all rows)
 * would silently lose rows; such queries are rejected, naming the construct.
 */
final class QueryRestrictions {

    private final ShardRouter router;
    private final Set<Class<?>> entityTypes;
    /** Walking the tree took about 7 % of a fan-out's calling thread; the answer depends on the tree alone. */
    private final StatementCache<Boolean> referenceOnlyAnswers = new StatementCache<>(512);

    QueryRestrictions(ShardRouter router, Set<Class<?>> entityTypes) {
        this.router = router;
        this.entityTypes = entityTypes;
    }

    /**
     * Whether the query reads reference data only (entities without a unit, the same rows on every shard), in
     * its FROM clause, its joins and all its subqueries: then any one shard answers it. Conservative: a CTE, a
     * derived table or anything that is not a mapped entity counts as sharded.
     */
    boolean referenceDataOnly(SqmSelectStatement<?> statement) {
        return referenceOnlyAnswers.get(statement, this::readsReferenceDataOnly);
    }

    private Boolean readsReferenceDataOnly(SqmSelectStatement<?> statement) {
        if (!statement.getCteStatements().isEmpty()) {
            return false;
        }
        ReferenceDataFinder finder = new ReferenceDataFinder();
        try {
            statement.accept(finder);
        }
        catch (RuntimeException unwalkable) {
            return false;
        }
        return finder.referenceOnly;
    }

    private boolean isReferenceData(SqmFrom<?, ?> from) {
        if (from instanceof SqmCteRoot<?> || from instanceof SqmDerivedRoot<?> || from instanceof SqmCteJoin<?>
                || from instanceof SqmDerivedJoin<?> || from instanceof SqmFunctionJoin<?>) {
            return false;
        }
        Class<?> type = from.getJavaType();
        if (!(from instanceof SqmAttributeJoin<?, ?>) && !entityTypes.contains(type)
                || router.routingOf(type).isPresent()) {
            return false;
        }
        for (SqmJoin<?, ?> join : from.getSqmJoins()) {
            if (!isReferenceData(join)) {
                return false;
            }
        }
        return true;
    }

    void check(SqmSelectStatement<?> statement) {
        if (!(statement.getQueryPart() instanceof SqmQuerySpec<?> spec)) {
            throw new UnsupportedFanOutQueryException("UNION/INTERSECT/EXCEPT",
                    "Run each part as its own query and combine the results in the application.");
        }
        if (!statement.getCteStatements().isEmpty()) {
            throw new UnsupportedFanOutQueryException("a WITH (common table expression) clause",
                    "Rewrite it as a subquery over reference data or as separate queries.");
        }
        if (spec.containsCollectionFetches()) {
            throw new UnsupportedFanOutQueryException("a fetch join of a collection",
                    "Fetch the collection lazily (with @BatchSize) or load the units one by one.");
        }
        checkFrom(spec, false);
        statement.accept(new Walker());
    }

    private void checkFrom(SqmQuerySpec<?> spec, boolean subquery) {
        int shardedRoots = 0;
        for (SqmRoot<?> root : spec.getRootList()) {
            if (root instanceof SqmCteRoot<?>) {
                throw new UnsupportedFanOutQueryException("a WITH (common table expression) clause",
                        "Rewrite it as a subquery over reference data or as separate queries.");
            }
            if (root instanceof SqmDerivedRoot<?>) {
                throw new UnsupportedFanOutQueryException("a FROM clause over a subquery",
                        "Each shard would see only its own rows; query the subquery's rows separately.");
            }
            if (subquery && !(root instanceof SqmCorrelation<?, ?>) && isSharded(root)) {
                throw new UnsupportedFanOutQueryException("a subquery over the sharded entity "
                        + root.getJavaType().getSimpleName() + " that is not correlated to the outer query",
                        "Each shard would see only its own rows. Correlate it (for example 'from c.orders o' or"
                                + " CriteriaBuilder Subquery.correlate) or query reference data.");
            }
            if (!(root instanceof SqmCorrelation<?, ?>) && isSharded(root)) {
                shardedRoots++;
            }
            checkJoins(root);
        }
        if (shardedRoots > 1) {
            throw new UnsupportedFanOutQueryException("a FROM clause with " + shardedRoots + " sharded roots",
                    "Rows of different units live on different shards; join through an association instead.");
        }
    }

    private void checkJoins(SqmFrom<?, ?> from) {
        for (SqmJoin<?, ?> join : from.getSqmJoins()) {
            if (join instanceof SqmDerivedJoin<?> || join instanceof SqmCteJoin<?>) {
                throw new UnsupportedFanOutQueryException("a join to a subquery",
                        "Each shard would see only its own rows; query the subquery's rows separately.");
            }
            if ((join instanceof SqmEntityJoin<?, ?> || join instanceof SqmCrossJoin<?>)
                    && !(join instanceof SqmCorrelation<?, ?>) && isSharded(join)) {
                throw new UnsupportedFanOutQueryException("an entity join to the sharded entity "
                        + join.getJavaType().getSimpleName(),
                        "Rows of different units live on different shards; join through an association instead.");
            }
            checkJoins(join);
        }
    }

    private boolean isSharded(SqmFrom<?, ?> from) {
        return router.routingOf(from.getJavaType()).isPresent();
    }

    /** Looks for anything that is not reference data in the FROM clauses of a statement and its subqueries. */
    private final class ReferenceDataFinder extends StatementWalker {
        boolean referenceOnly = true;

        @Override
        public Object visitQuerySpec(SqmQuerySpec<?> querySpec) {
            for (SqmRoot<?> root : querySpec.getRootList()) {
                referenceOnly &= isReferenceData(root);
            }
            return super.visitQuerySpec(querySpec);
        }
    }

    /** Rejects window functions and checks the FROM clause of every subquery. */
    private final class Walker extends StatementWalker {

        @Override
        public Object visitOver(SqmOver<?> over) {
            throw new UnsupportedFanOutQueryException("a window function (" + over.toHqlString() + ")",
                    "A window spans the rows of all shards; compute it in the application from the merged rows.");
        }

        @Override
        public Object visitSubQueryExpression(SqmSubQuery<?> subQuery) {
            if (!(subQuery.getQueryPart() instanceof SqmQuerySpec<?> spec)) {
                throw new UnsupportedFanOutQueryException("UNION/INTERSECT/EXCEPT in a subquery",
                        "Run each part as its own query.");
            }
            checkFrom(spec, true);
            return super.visitSubQueryExpression(subQuery);
        }
    }
}
