package org.atomicshards.hibernate.internal.fanout;

import java.util.List;

import org.atomicshards.hibernate.internal.fanout.aggregate.MergedValue;
import org.atomicshards.hibernate.internal.fanout.aggregate.PartialMerge;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * How one query runs on each shard and how the shards' rows are merged. Built once per query by
 * {@link MergePlanner}; immutable; independent of parameter values.
 *
 * <p>Each shard runs {@link #shardStatement}, which selects {@link #combine columns} (the user's selection plus
 * the hidden columns the merge needs). The merge computes {@link #items} per merged row: in a plain query an item
 * is a column; in an aggregating query it is a group's key, a passenger value or a finished aggregate (what an
 * aggregate's columns are and how they combine is its {@code MergeableAggregate}'s business). The visible
 * items become the result, the sort keys order it, HAVING filters it.
 */
final class MergePlan {

    /**
     * How a column of the shard rows combines across the rows of one group: a group key, a value taken from the
     * group's first row, a partial aggregate (combined by the column's {@link PartialMerge}), or the distinct
     * values of an aggregate's argument (collected).
     */
    enum Combine { KEY, PASSENGER, PARTIAL, DISTINCT_ARGUMENT }

    /**
     * A value of a merged row.
     *
     * @param column    the shard column it reads (-1 for an aggregate, which reads its own columns)
     * @param aggregate how the aggregate it is finishes, or null for a plain value
     * @param javaType  the Java type of the value
     * @param entity    whether the value is an entity (compared and hashed by identifier)
     */
    record Item(int column, MergedValue aggregate, Class<?> javaType, boolean entity) {
    }

    /**
     * One ORDER BY key: an item, its direction, where nulls go, and whether its values are enums the database
     * orders by name (a character column) rather than by declaration order.
     */
    record SortKey(int item, boolean descending, boolean nullsFirst, boolean enumByName) {
    }

    final SqmSelectStatement<Object[]> shardStatement;
    /**
     * The shard statement with the shard's ownership epoch as one more, last column (after {@link #combine the merge's
     * columns}); null outside an Atomic Shards factory, and when its shards run in this JVM (the epoch is then read
     * after the query).
     */
    final SqmSelectStatement<Object[]> shardStatementWithEpoch;
    /**
     * Whether Hibernate may serve the shard statements from its query plan cache and share their plan with other
     * statements of their structure: their columns are labelled with their types ({@link PlanSharing}) and none of
     * their sorts ignores case ({@link ShardStatements#planCacheable}).
     */
    final boolean sharesPlan;
    final Combine[] combine;
    /** Per column, how a {@link Combine#PARTIAL} column's values combine; null for the others. */
    final PartialMerge[] partials;
    final boolean aggregating;
    final boolean global;
    final List<Item> items;
    final int[] visible;
    final List<SortKey> sortKeys;
    final HavingCondition having;
    final boolean distinct;
    final ResultShape shape;
    final SqmExpression<?> offsetExpression;
    final SqmExpression<?> fetchExpression;
    /** Where the merge orders strings (ORDER BY, MIN/MAX, HAVING comparisons), as the query spells them. */
    final List<String> stringOrderings;
    /** Where the merge matches strings for equality by their exact characters (GROUP BY, DISTINCT keys). */
    final List<String> stringEqualities;

    MergePlan(SqmSelectStatement<Object[]> shardStatement, SqmSelectStatement<Object[]> shardStatementWithEpoch,
              boolean sharesPlan, Combine[] combine, PartialMerge[] partials,
              boolean aggregating, boolean global,
              List<Item> items, int[] visible, List<SortKey> sortKeys, HavingCondition having, boolean distinct,
              ResultShape shape, SqmExpression<?> offsetExpression, SqmExpression<?> fetchExpression,
              List<String> stringOrderings, List<String> stringEqualities) {
        this.shardStatement = shardStatement;
        this.shardStatementWithEpoch = shardStatementWithEpoch;
        this.sharesPlan = sharesPlan;
        this.combine = combine;
        this.partials = partials;
        this.aggregating = aggregating;
        this.global = global;
        this.items = List.copyOf(items);
        this.visible = visible;
        this.sortKeys = List.copyOf(sortKeys);
        this.having = having;
        this.distinct = distinct;
        this.shape = shape;
        this.offsetExpression = offsetExpression;
        this.fetchExpression = fetchExpression;
        this.stringOrderings = List.copyOf(stringOrderings);
        this.stringEqualities = List.copyOf(stringEqualities);
    }

    /**
     * Whether each shard reads its epoch within its statement: when its rows are few (paging pushed down, or groups),
     * where a second round trip per shard would cost as much as the query. A scalar subquery in the SELECT list is
     * evaluated once per statement by PostgreSQL and MariaDB but once per row by H2 when streaming, so an unbounded
     * query reads the epoch in a statement of its own after its first rows instead.
     */
    boolean readsEpochInStatement(int shardMax) {
        return shardStatementWithEpoch != null && (shardMax >= 0 || aggregating);
    }

    /** The column holding the epoch in {@link #shardStatementWithEpoch}'s rows. */
    int epochColumn() {
        return combine.length;
    }

    boolean sorted() {
        return !sortKeys.isEmpty();
    }

    /** Whether each shard can be asked for only first + max rows (no re-aggregation after the merge). */
    boolean pushesPagingDown() {
        return !aggregating;
    }
}
