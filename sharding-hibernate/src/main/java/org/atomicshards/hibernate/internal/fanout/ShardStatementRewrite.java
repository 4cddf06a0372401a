package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.criteria.Expression;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmOrderByClause;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectClause;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * The last planning step: turns the copy of the user's statement into the statement each shard runs. It selects
 * the merge's columns, each a column whose type its structure does not fix under a label of its type
 * ({@link PlanSharing}); OFFSET/FETCH go (paging is applied after the merge); an aggregating query groups by the
 * user's keys and the DISTINCT aggregates' arguments and loses HAVING and ORDER BY (applied to the merged groups).
 */
final class ShardStatementRewrite {

    private ShardStatementRewrite() {
    }

    /**
     * Adds the shard's ownership epoch ({@link OwnershipFence#EPOCH_FUNCTION}) as the statement's last column: read in
     * the statement's own snapshot, it tells which claims the rows belong to without a second round trip.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void selectEpoch(SqmSelectStatement<Object[]> shardStatement, NodeBuilder nodeBuilder) {
        SqmSelectClause select = shardStatement.getQuerySpec().getSelectClause();
        select.addSelection(PlanSharing.column((SqmExpression<?>) nodeBuilder.function(OwnershipFence.EPOCH_FUNCTION,
                Long.class, new Expression<?>[0]), select.getSelections().size(), nodeBuilder));
    }

    /**
     * @param shardStatement the copy of {@code spec}'s statement, rewritten in place
     * @param groupBy        the user's GROUP BY, positions resolved
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void rewrite(SqmSelectStatement<Object[]> shardStatement, SqmQuerySpec<?> spec, MergeColumns columns,
                        boolean aggregating, boolean distinct, List<SqmExpression<?>> groupBy,
                        Projection projection) {
        NodeBuilder nodeBuilder = columns.nodeBuilder();
        SqmQuerySpec<Object[]> shardSpec = shardStatement.getQuerySpec();
        SqmSelectClause select = new SqmSelectClause(!aggregating && distinct, columns.columns().size(),
                nodeBuilder);
        for (int i = 0; i < columns.columns().size(); i++) {
            select.addSelection(PlanSharing.column(columns.columns().get(i), i, nodeBuilder));
        }
        shardSpec.setSelectClause(select);
        shardSpec.setOffsetExpression(null);
        shardSpec.setFetchExpression(null);
        if (aggregating) {
            List<SqmExpression<?>> shardGroupBy = new ArrayList<>();
            for (SqmExpression<?> expression : groupBy) {
                shardGroupBy.add(columns.copy(expression));
            }
            shardGroupBy.addAll(columns.distinctArgumentColumns());
            shardSpec.setGroupByClauseExpressions(shardGroupBy);
            shardSpec.setHavingClausePredicate(null);
            shardSpec.setOrderByClause(null);
        }
        else if (!spec.getSortSpecifications().isEmpty()) {
            // Positions and aliases in ORDER BY refer to the user's SELECT list, which the shard query replaced.
            SqmOrderByClause orderBy = new SqmOrderByClause(spec.getSortSpecifications().size());
            for (SqmSortSpecification sort : spec.getSortSpecifications()) {
                orderBy.addSortSpecification(new SqmSortSpecification(
                        sortExpression(columns.copy(projection.resolve(sort.getSortExpression())), sort.isIgnoreCase(),
                                nodeBuilder), sort.getSortDirection(), sort.getNullPrecedence(), false));
            }
            shardSpec.setOrderByClause(orderBy);
        }
    }

    /**
     * What a shard orders by: the expression, or for an ignore-case sort {@code lower(expression)}, the values the
     * merge compares ({@link Ordering}) and the SQL Hibernate renders for the flag. Spelled out rather than flagged
     * because Hibernate's query plan cache does not tell the flag apart (see {@link ShardStatements}).
     */
    @SuppressWarnings("unchecked")
    private static SqmExpression<?> sortExpression(SqmExpression<?> expression, boolean ignoreCase,
                                                   NodeBuilder nodeBuilder) {
        return ignoreCase ? (SqmExpression<?>) nodeBuilder.lower((Expression<String>) expression) : expression;
    }
}
