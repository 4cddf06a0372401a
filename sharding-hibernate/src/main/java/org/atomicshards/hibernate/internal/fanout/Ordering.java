package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Nulls;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.internal.fanout.MergePlan.SortKey;
import org.hibernate.dialect.NullOrdering;
import org.hibernate.query.SortDirection;
import org.hibernate.query.common.FetchClauseType;
import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * The planning step of ORDER BY and paging: the keys the merge orders by (nulls placed where the database places
 * them; strings and enums stored by name recorded for the collation check) and the query's own OFFSET/FETCH, which
 * the merge applies once, after merging.
 */
final class Ordering {

    private final NullOrdering dialectNullOrdering;
    private final Nulls defaultNulls;
    private final NodeBuilder nodeBuilder;
    private final Projection projection;
    private final MergeColumns columns;
    private final StringComparisons strings;

    Ordering(NullOrdering dialectNullOrdering, Nulls defaultNulls, NodeBuilder nodeBuilder, Projection projection,
             MergeColumns columns, StringComparisons strings) {
        this.dialectNullOrdering = dialectNullOrdering;
        this.defaultNulls = defaultNulls;
        this.nodeBuilder = nodeBuilder;
        this.projection = projection;
        this.columns = columns;
        this.strings = strings;
    }

    /**
     * The sort keys of the query's ORDER BY.
     *
     * @param item the merged item of a sort expression (added to the shard columns when it is not selected)
     */
    List<SortKey> sortKeys(List<SqmSortSpecification> sorts, ToIntFunction<SqmExpression<?>> item) {
        List<SortKey> keys = new ArrayList<>();
        for (SqmSortSpecification sort : sorts) {
            SqmExpression<?> expression = sortExpression(sort);
            keys.add(sortKey(sort, item.applyAsInt(expression), expression));
        }
        return keys;
    }

    /** The query's FETCH expression (null without one); only FETCH FIRST n ROWS ONLY can be merged. */
    static SqmExpression<?> fetchExpression(SqmQuerySpec<?> spec) {
        if (spec.getFetchExpression() != null && spec.getFetchClauseType() != FetchClauseType.ROWS_ONLY) {
            throw new UnsupportedFanOutQueryException("FETCH " + spec.getFetchClauseType(),
                    "Only FETCH FIRST n ROWS ONLY (LIMIT) can be merged; use setMaxResults.");
        }
        return spec.getFetchExpression();
    }

    private SqmExpression<?> sortExpression(SqmSortSpecification sort) {
        SqmExpression<?> expression = projection.resolve(sort.getSortExpression());
        if (columns.isEntityValued(expression)) {
            throw new UnsupportedFanOutQueryException("ORDER BY the entity " + expression.getJavaType()
                    .getSimpleName(), "Order by one of its attributes (for example its id).");
        }
        if (sort.isIgnoreCase()) {
            @SuppressWarnings("unchecked")
            Expression<String> text = (Expression<String>) expression;
            return (SqmExpression<?>) nodeBuilder.lower(text);
        }
        return expression;
    }

    private SortKey sortKey(SqmSortSpecification sort, int item, SqmExpression<?> expression) {
        boolean descending = sort.getSortDirection() == SortDirection.DESCENDING;
        strings.ordering(expression, "ORDER BY");
        return new SortKey(item, descending, nullsFirst(sort, descending),
                StringComparisons.enumByName(expression));
    }

    /** Where the database puts nulls: as the sort says, else as configured, else as the dialect does. */
    private boolean nullsFirst(SqmSortSpecification sort, boolean descending) {
        Nulls precedence = sort.getNullPrecedence();
        if (precedence == null || precedence == Nulls.NONE) {
            precedence = defaultNulls;
        }
        if (precedence == Nulls.FIRST) {
            return true;
        }
        if (precedence == Nulls.LAST) {
            return false;
        }
        switch (dialectNullOrdering) {
            case FIRST:
                return true;
            case LAST:
                return false;
            case SMALLEST:
                return !descending;
            default:
                return descending;
        }
    }
}
