package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.persistence.criteria.Nulls;
import org.atomicshards.hibernate.internal.fanout.MergePlan.SortKey;
import org.atomicshards.hibernate.internal.fanout.aggregate.MergeableAggregates;
import org.hibernate.dialect.NullOrdering;
import org.hibernate.query.sqm.tree.SqmCopyContext;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * Plans how a query runs on each shard and how the rows merge (see {@link MergePlan}). Rejects, before any shard
 * is queried, every construct whose merge would not equal one database's answer
 * ({@link QueryRestrictions}, and each planning step for its own part), naming it.
 *
 * <p>The steps, on a copy of the query tree: the SELECT list ({@link Projection}); the columns each shard selects
 * and the items the merge computes ({@link MergeColumns}; aggregates planned by their {@link MergeableAggregates
 * kind}, for example AVG as SUM and COUNT, an aggregate over DISTINCT values as a GROUP BY of its argument); GROUP BY
 * and HAVING ({@link Grouping}); ORDER BY and paging ({@link Ordering}); the string comparisons the merge makes
 * ({@link StringComparisons}); and the statement each shard runs ({@link ShardStatementRewrite}), also in a variant
 * that selects the shard's ownership epoch as a last column the merge does not read.
 */
final class MergePlanner {

    private final QueryRestrictions restrictions;
    private final NullOrdering dialectNullOrdering;
    private final Nulls defaultNulls;
    private final Set<Class<?>> entityTypes;
    private final SelectedRowPaths rowPaths;
    private final MergeableAggregates aggregates;

    MergePlanner(QueryRestrictions restrictions, NullOrdering dialectNullOrdering, Nulls defaultNulls,
                 Set<Class<?>> entityTypes, SelectedRowPaths rowPaths, MergeableAggregates aggregates) {
        this.restrictions = restrictions;
        this.dialectNullOrdering = dialectNullOrdering;
        this.defaultNulls = defaultNulls;
        this.entityTypes = entityTypes;
        this.rowPaths = rowPaths;
        this.aggregates = aggregates;
    }

    /**
     * @param readsEpoch whether each shard's statement also selects its ownership epoch, as its last column (for the
     *                   resharding check of an Atomic Shards factory)
     */
    MergePlan plan(SqmSelectStatement<?> statement, boolean readsEpoch) {
        restrictions.check(statement);
        SqmQuerySpec<?> spec = statement.getQuerySpec();
        // One copy context for the statement and every column copied later: copied paths then refer to the copied
        // FROM clause.
        SqmCopyContext copyContext = SqmCopyContext.noParamCopyContext();
        SqmSelectStatement<Object[]> shardStatement = statement.createCopy(copyContext, Object[].class);

        Projection projection = new Projection(statement);
        StringComparisons strings = new StringComparisons();
        MergeColumns columns = new MergeColumns(copyContext, statement.nodeBuilder(), aggregates, entityTypes,
                rowPaths, projection.leaves(), strings);
        Ordering ordering = new Ordering(dialectNullOrdering, defaultNulls, statement.nodeBuilder(), projection,
                columns, strings);
        List<SqmExpression<?>> groupBy = new ArrayList<>();
        for (SqmExpression<?> expression : spec.getGroupByClauseExpressions()) {
            groupBy.add(projection.resolve(expression));
        }
        boolean aggregating = Grouping.aggregates(spec, projection, groupBy);
        boolean distinct = spec.getSelectClause().isDistinct();
        List<SqmExpression<?>> leaves = projection.leaves();

        int[] visible = new int[leaves.size()];
        List<SortKey> sortKeys;
        HavingCondition having = null;
        if (aggregating) {
            Grouping grouping = new Grouping(columns, strings);
            visible = grouping.plan(groupBy, leaves);
            sortKeys = ordering.sortKeys(spec.getSortSpecifications(),
                    expression -> columns.aggregatingItem(expression, false));
            having = grouping.having(spec.getHavingClausePredicate());
        }
        else {
            for (int i = 0; i < leaves.size(); i++) {
                visible[i] = columns.plainItem(leaves.get(i), distinct, true);
                if (distinct) {
                    strings.equality(leaves.get(i), "SELECT DISTINCT");
                }
            }
            sortKeys = ordering.sortKeys(spec.getSortSpecifications(),
                    expression -> columns.plainItem(expression, distinct, false));
        }
        ShardStatementRewrite.rewrite(shardStatement, spec, columns, aggregating, distinct, groupBy, projection);
        SqmSelectStatement<Object[]> withEpoch = null;
        if (readsEpoch) {
            withEpoch = shardStatement.copy(SqmCopyContext.noParamCopyContext());
            ShardStatementRewrite.selectEpoch(withEpoch, statement.nodeBuilder());
            withEpoch = ShardStatements.declaringUsedParameters(withEpoch);
        }
        return new MergePlan(ShardStatements.declaringUsedParameters(shardStatement), withEpoch,
                PlanSharing.shareable(columns.columns()) && ShardStatements.planCacheable(shardStatement),
                columns.combine(), columns.partials(), aggregating, aggregating && groupBy.isEmpty(), columns.items(),
                visible, sortKeys, having, distinct, projection.shape(), spec.getOffsetExpression(),
                Ordering.fetchExpression(spec), strings.orderings(), strings.equalities());
    }
}
