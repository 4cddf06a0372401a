package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.atomicshards.hibernate.spi.UnitRouting;
import org.hibernate.query.sqm.ComparisonOperator;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.expression.SqmLiteral;
import org.hibernate.query.sqm.tree.expression.SqmParameter;
import org.hibernate.query.sqm.tree.from.SqmFrom;
import org.hibernate.query.sqm.tree.predicate.SqmBetweenPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmComparisonPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmGroupedPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmInListPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmJunctionPredicate;
import org.hibernate.query.sqm.tree.predicate.SqmPredicate;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * Finds the shards a query can have rows on, from shard-key predicates in its WHERE tree (never from SQL text).
 *
 * <p>Sound by construction: a predicate narrows the shards only where every row it admits must live on those
 * shards. Equality and IN on a unit's shard key give the key's shards, ranges give {@link UnitRouting#shardsForRange}
 * (every shard under hash policies); AND intersects, OR unites, and anything under NOT, any other predicate, or a
 * value that is not bound or not of the key's type leaves all shards. Joins are local to a shard, so a key
 * predicate on any entity of the row (root or join) narrows the whole row. Equality and IN on an attribute with a
 * {@link org.atomicshards.annotations.ShardIndex} give the shards of the units its entries name
 * ({@link ShardRouter#shardsForIndexedValues}): a superset of the shards of the rows committed before the query
 * (string values only where the shards compare strings exactly).
 */
final class ShardPruner {

    private final ShardRouter router;
    private final QueryRestrictions restrictions;
    private final BooleanSupplier exactStrings;

    /** A pruner that never narrows by an index on a string attribute. */
    ShardPruner(ShardRouter router, QueryRestrictions restrictions) {
        this(router, restrictions, () -> false);
    }

    /**
     * @param exactStrings whether every shard's database compares strings exactly (no case, accent or pad-space
     *                     equality), asked before narrowing by an index on a string attribute: an index compares its
     *                     values exactly, so under any other equality it could leave out shards with rows equal to the
     *                     value
     */
    ShardPruner(ShardRouter router, QueryRestrictions restrictions, BooleanSupplier exactStrings) {
        this.router = router;
        this.restrictions = restrictions;
        this.exactStrings = exactStrings;
    }

    /** The target shards, in topology order; never empty. */
    List<ShardId> targets(SqmSelectStatement<?> statement, ParameterBindings bindings) {
        List<ShardId> all = router.shards();
        if (restrictions.referenceDataOnly(statement)) {
            // Reference data only: every shard holds the same rows, so one shard answers.
            return List.of(all.get(0));
        }
        if (!(statement.getQueryPart() instanceof SqmQuerySpec<?> spec)) {
            return all;
        }
        SqmPredicate where = spec.getWhereClause() == null ? null : spec.getWhereClause().getPredicate();
        Set<ShardId> narrowed = where == null ? null : shardsOf(where, bindings);
        if (narrowed == null) {
            return all;
        }
        List<ShardId> targets = new ArrayList<>();
        for (ShardId shard : all) {
            if (narrowed.contains(shard)) {
                targets.add(shard);
            }
        }
        // No shard can hold a row (contradictory keys, a key never placed): one shard answers "nothing" correctly,
        // including the single row of an aggregate over no rows.
        return targets.isEmpty() ? List.of(all.get(0)) : targets;
    }

    /** The shards rows satisfying the predicate can live on; {@code null} means all shards. */
    private Set<ShardId> shardsOf(SqmPredicate predicate, ParameterBindings bindings) {
        if (predicate instanceof SqmGroupedPredicate grouped) {
            return shardsOf(grouped.getSubPredicate(), bindings);
        }
        if (predicate.isNegated()) {
            return null;
        }
        if (predicate instanceof SqmJunctionPredicate junction) {
            return junction.getOperator() == jakarta.persistence.criteria.Predicate.BooleanOperator.AND
                    ? intersection(junction.getPredicates(), bindings)
                    : union(junction.getPredicates(), bindings);
        }
        if (predicate instanceof SqmComparisonPredicate comparison) {
            return comparison(comparison, bindings);
        }
        if (predicate instanceof SqmInListPredicate<?> in) {
            return inList(in, bindings);
        }
        if (predicate instanceof SqmBetweenPredicate between) {
            return between(between, bindings);
        }
        return null;
    }

    private Set<ShardId> intersection(List<SqmPredicate> predicates, ParameterBindings bindings) {
        Set<ShardId> result = null;
        for (SqmPredicate predicate : predicates) {
            Set<ShardId> shards = shardsOf(predicate, bindings);
            if (shards != null) {
                if (result == null) {
                    result = new LinkedHashSet<>(shards);
                }
                else {
                    result.retainAll(shards);
                }
            }
        }
        return result;
    }

    private Set<ShardId> union(List<SqmPredicate> predicates, ParameterBindings bindings) {
        Set<ShardId> result = new LinkedHashSet<>();
        for (SqmPredicate predicate : predicates) {
            Set<ShardId> shards = shardsOf(predicate, bindings);
            if (shards == null) {
                return null;
            }
            result.addAll(shards);
        }
        return result;
    }

    private Set<ShardId> comparison(SqmComparisonPredicate comparison, ParameterBindings bindings) {
        ComparisonOperator operator = comparison.getSqmOperator();
        SqmExpression<?> keySide = comparison.getLeftHandExpression();
        SqmExpression<?> valueSide = comparison.getRightHandExpression();
        Optional<UnitRouting> routing = routingIfShardKey(keySide);
        if (routing.isEmpty()) {
            routing = routingIfShardKey(valueSide);
            if (routing.isEmpty()) {
                return operator == ComparisonOperator.EQUAL ? indexedEquality(keySide, valueSide, bindings) : null;
            }
            SqmExpression<?> swap = keySide;
            keySide = valueSide;
            valueSide = swap;
            operator = operator.invert();
        }
        Object key = keyValue(valueSide, routing.get(), bindings);
        if (key == null) {
            return null;
        }
        switch (operator) {
            case EQUAL:
            case NOT_DISTINCT_FROM:
                return routing.get().shardsForKey(key);
            case LESS_THAN:
                return range(routing.get(), null, false, key, false);
            case LESS_THAN_OR_EQUAL:
                return range(routing.get(), null, false, key, true);
            case GREATER_THAN:
                return range(routing.get(), key, false, null, false);
            case GREATER_THAN_OR_EQUAL:
                return range(routing.get(), key, true, null, false);
            default:
                return null;
        }
    }

    private Set<ShardId> between(SqmBetweenPredicate between, ParameterBindings bindings) {
        Optional<UnitRouting> routing = routingIfShardKey(between.getExpression());
        if (routing.isEmpty()) {
            return null;
        }
        Object lower = keyValue(between.getLowerBound(), routing.get(), bindings);
        Object upper = keyValue(between.getUpperBound(), routing.get(), bindings);
        return lower == null || upper == null ? null : range(routing.get(), lower, true, upper, true);
    }

    private static Set<ShardId> range(UnitRouting routing, Object lower, boolean lowerInclusive, Object upper,
                                      boolean upperInclusive) {
        if (lower != null && !(lower instanceof Comparable) || upper != null && !(upper instanceof Comparable)) {
            return null;
        }
        return routing.shardsForRange((Comparable<?>) lower, lowerInclusive, (Comparable<?>) upper, upperInclusive);
    }

    private Set<ShardId> inList(SqmInListPredicate<?> in, ParameterBindings bindings) {
        Optional<UnitRouting> routing = routingIfShardKey(in.getTestExpression());
        if (routing.isEmpty()) {
            return indexedIn(in, bindings);
        }
        Set<ShardId> result = new LinkedHashSet<>();
        for (SqmExpression<?> element : in.getListExpressions()) {
            Object raw = rawValue(element, bindings);
            Collection<?> values = raw instanceof Collection<?> collection ? collection : java.util.Arrays.asList(raw);
            for (Object value : values) {
                Object key = convert(value, routing.get().keyType());
                if (key == null) {
                    return null;
                }
                result.addAll(routing.get().shardsForKey(key));
            }
        }
        return result;
    }

    /** {@code attribute = value} (either way round) on an indexed attribute: the shards its index names. */
    private Set<ShardId> indexedEquality(SqmExpression<?> left, SqmExpression<?> right, ParameterBindings bindings) {
        Set<ShardId> shards = indexed(left, java.util.Arrays.asList(rawValue(right, bindings)));
        return shards != null ? shards : indexed(right, java.util.Arrays.asList(rawValue(left, bindings)));
    }

    /** {@code attribute IN (values)} on an indexed attribute: the shards its index names for the values. */
    private Set<ShardId> indexedIn(SqmInListPredicate<?> in, ParameterBindings bindings) {
        List<Object> values = new ArrayList<>();
        for (SqmExpression<?> element : in.getListExpressions()) {
            Object raw = rawValue(element, bindings);
            if (raw instanceof Collection<?> collection) {
                values.addAll(collection);
            } else {
                values.add(raw);
            }
        }
        return indexed(in.getTestExpression(), values);
    }

    /**
     * The shards the index of {@code expression} names for {@code values}, when the expression is an attribute of an
     * entity in the FROM clause that has an index and every value is bound; otherwise null (all shards).
     */
    private Set<ShardId> indexed(SqmExpression<?> expression, List<Object> values) {
        if (!(expression instanceof SqmPath<?> path) || expression instanceof SqmFrom<?, ?>
                || !(path.getLhs() instanceof SqmFrom<?, ?> from) || values.contains(null)) {
            return null;
        }
        if (values.stream().anyMatch(String.class::isInstance) && !exactStrings.getAsBoolean()) {
            return null;
        }
        String attribute = path.getReferencedPathSource().getPathName();
        return router.shardsForIndexedValues(from.getJavaType(), attribute, values).orElse(null);
    }

    /** The routing whose shard key this expression is, when it is the key path of an entity in the FROM clause. */
    private Optional<UnitRouting> routingIfShardKey(SqmExpression<?> expression) {
        if (!(expression instanceof SqmPath<?> path) || expression instanceof SqmFrom<?, ?>) {
            return Optional.empty();
        }
        Deque<String> names = new ArrayDeque<>();
        SqmPath<?> current = path;
        while (current != null && !(current instanceof SqmFrom<?, ?>)) {
            names.addFirst(current.getReferencedPathSource().getPathName());
            current = current.getLhs();
        }
        if (current == null) {
            return Optional.empty();
        }
        Class<?> entityType = current.getJavaType();
        Optional<UnitRouting> routing = router.routingOf(entityType);
        if (routing.isEmpty()) {
            return Optional.empty();
        }
        String keyPath;
        try {
            keyPath = routing.get().shardKeyPath(entityType);
        }
        catch (IllegalArgumentException notAMember) {
            return Optional.empty();
        }
        return String.join(".", names).equals(keyPath) ? routing : Optional.empty();
    }

    private static Object keyValue(SqmExpression<?> expression, UnitRouting routing, ParameterBindings bindings) {
        return convert(rawValue(expression, bindings), routing.keyType());
    }

    private static Object rawValue(SqmExpression<?> expression, ParameterBindings bindings) {
        if (expression instanceof SqmLiteral<?> literal) {
            return literal.getLiteralValue();
        }
        if (expression instanceof SqmParameter<?> parameter) {
            Object value = bindings.valueOf(parameter);
            return value == ParameterBindings.UNBOUND ? null : value;
        }
        return null;
    }

    /** The value as the key type, or null when it is null or cannot be converted exactly (then nothing is pruned). */
    static Object convert(Object value, Class<?> keyType) {
        if (value == null) {
            return null;
        }
        Class<?> boxed = box(keyType);
        if (boxed.isInstance(value)) {
            return value;
        }
        if (value instanceof Number number && isIntegral(number)) {
            long asLong = number.longValue();
            if (boxed == Long.class) {
                return asLong;
            }
            if (boxed == Integer.class && asLong == (int) asLong) {
                return (int) asLong;
            }
            if (boxed == Short.class && asLong == (short) asLong) {
                return (short) asLong;
            }
            if (boxed == BigInteger.class) {
                return BigInteger.valueOf(asLong);
            }
            if (boxed == BigDecimal.class) {
                return BigDecimal.valueOf(asLong);
            }
        }
        return null;
    }

    private static boolean isIntegral(Number number) {
        return number instanceof Long || number instanceof Integer || number instanceof Short
                || number instanceof Byte;
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        if (type == long.class) {
            return Long.class;
        }
        if (type == int.class) {
            return Integer.class;
        }
        if (type == short.class) {
            return Short.class;
        }
        if (type == byte.class) {
            return Byte.class;
        }
        return type;
    }
}
