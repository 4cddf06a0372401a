package org.atomicshards.hibernate.internal.fanout;

import java.util.List;

import org.hibernate.query.sqm.NodeBuilder;
import org.hibernate.query.sqm.SqmQuerySource;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSelectableNode;
import org.hibernate.query.sqm.tree.select.SqmSelection;

/**
 * Which statements the fan-out runs share a plan in Hibernate's query plan cache: only statements whose selected
 * values Hibernate reads in the same Java types.
 *
 * <p>Why: every statement the fan-out runs on a shard is a tree, not an HQL string, and Hibernate's plan cache keys a
 * tree by its structure ({@code SqmStatement#isCompatible}). That structure compares a function by its name and
 * arguments, not by the type it returns, while a plan reads each selected column in the Java type the statement that
 * created it gave the column. Nodes of one structure can have other types: the planner builds nodes of its own (the
 * SUM and COUNT an AVG becomes), Criteria types {@code sum} as its argument (an Integer over an int, a Float over a
 * float) and {@code sumAsLong} as a Long, and {@code CriteriaBuilder.function} returns whatever type it is given,
 * where JPQL's SUM over an int is a Long. Statements of one structure then shared the plan of whichever ran first and
 * returned the others' values in its types (issue 54: after the JPQL {@code avg(c.tier)}, whose shard statement
 * selected the SUM of tier built with {@code NodeBuilder#sum}, an Integer, and its COUNT, the JPQL
 * {@code select sum(c.tier), count(c.tier)} returned an Integer sum until the factory was restarted). A JPQL statement
 * and a Criteria one of the same query were not seen to meet there (their roots' paths differ), but nothing here
 * relies on it.
 *
 * <p>The structure does compare each selection's alias. A shard statement's selections are the engine's own: each
 * column whose type its structure does not fix (any expression but a path) is selected under a label naming its
 * position and Java type, so that two shard statements share a plan exactly when they have one structure and their
 * columns one type each. A label is not a valid HQL identifier, so no alias a user writes can equal it; it is never
 * rendered into SQL. A query that runs as written on one shard keeps its own selections (their aliases are the
 * caller's), so it shares a plan only when its types follow from its structure ({@link #shareableAsWritten}).
 */
final class PlanSharing {

    private PlanSharing() {
    }

    /**
     * The selection of the column at {@code position} of a shard statement: labelled with its position and Java type
     * unless its structure fixes its type (a path) or it is a parameter (the caller's node, which is never changed:
     * a statement selecting one does not share its plan, see {@link #shareable}).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static SqmSelection<?> column(SqmExpression<?> column, int position, NodeBuilder nodeBuilder) {
        if (typedByStructure(column) || column instanceof SqmParameter<?>) {
            return new SqmSelection(column, nodeBuilder);
        }
        return new SqmSelection(column, label(position, column), nodeBuilder);
    }

    /**
     * Whether a shard statement selecting {@code columns} (through {@link #column}) may share its plan: unless it
     * selects a parameter, whose type depends on its binding and whose node cannot be labelled.
     */
    static boolean shareable(List<SqmExpression<?>> columns) {
        return columns.stream().noneMatch(column -> column instanceof SqmParameter<?>);
    }

    /**
     * Whether a query run as written may share its plan: an HQL statement, whose types follow from its text (another
     * statement of its structure has its types, or labelled columns); a Criteria statement only when it selects paths
     * alone, since Criteria declares the types of functions and values itself. Hibernate translates any other once per
     * run, as it does any Criteria query when its criteria plan cache is off.
     */
    static boolean shareableAsWritten(SqmSelectStatement<?> statement) {
        if (statement.getQuerySource() != SqmQuerySource.CRITERIA) {
            return true;
        }
        List<SqmSelection<?>> selections = statement.getQuerySpec().getSelectClause().getSelections();
        return !selections.isEmpty()
                && selections.stream().allMatch(selection -> typedByStructure(selection.getSelectableNode()));
    }

    /** A path (an attribute, an entity, a join): its type is its attribute's or entity's, whatever built it. */
    private static boolean typedByStructure(SqmSelectableNode<?> node) {
        return node instanceof SqmPath<?>;
    }

    /** {@code #2:java.lang.Long}: not an HQL identifier (no alias a user writes), unique per position. */
    static String label(int position, SqmExpression<?> column) {
        Class<?> type = column.getJavaType();
        return "#" + position + ":" + (type == null ? "?" : type.getName());
    }
}
