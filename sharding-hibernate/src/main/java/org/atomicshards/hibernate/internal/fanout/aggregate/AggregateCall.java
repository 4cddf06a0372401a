package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.util.Locale;

import org.hibernate.query.sqm.tree.expression.SqmAggregateFunction;
import org.hibernate.query.sqm.tree.expression.SqmDistinct;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmFunction;
import org.hibernate.query.sqm.tree.SqmTypedNode;

/** One call of an aggregate function in the user's query (a node of its tree, never of a shard's copy). */
public final class AggregateCall {

    private final SqmFunction<?> function;
    private final String name;

    AggregateCall(SqmFunction<?> function) {
        this.function = function;
        this.name = function.getFunctionName().toLowerCase(Locale.ROOT);
    }

    /** The call itself, as the user's query holds it (copy it for a shard with {@link ShardColumns#copy}). */
    public SqmFunction<?> function() {
        return function;
    }

    /** The function's name, lower case, as Hibernate names it in the tree. */
    public String name() {
        return name;
    }

    /** Whether the call aggregates DISTINCT values ({@code count(distinct x)}). */
    public boolean distinct() {
        return function.getArguments().size() == 1 && function.getArguments().get(0) instanceof SqmDistinct<?>;
    }

    /** The first argument, without its DISTINCT. */
    public SqmExpression<?> argument() {
        SqmTypedNode<?> argument = function.getArguments().get(0);
        return argument instanceof SqmDistinct<?> distinct ? distinct.getExpression() : (SqmExpression<?>) argument;
    }

    /** Whether the call has a FILTER clause. */
    public boolean filtered() {
        return function instanceof SqmAggregateFunction<?> aggregate && aggregate.getFilter() != null;
    }

    /** The Java type the database's aggregate returns (what the merged value is converted to). */
    public Class<?> javaType() {
        return function.getJavaType();
    }
}
