package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;

/**
 * A random aggregate query over {@link Client}: one to three aggregate calls over its numeric attributes, over all rows
 * or per tier (then ordered by tier, with or without a HAVING condition), over every shard or pruned to one key's
 * shard, in one of the result forms an application asks for. It renders as JPQL and builds as a Criteria query on any
 * factory's builder, both with the root alias {@code c}, so that a Criteria query and a JPQL query of one shape have
 * shard statements Hibernate's plan cache takes for one and the same.
 *
 * <p>Two calls are often SUM and COUNT of one attribute: the shard statement of an AVG of it, which the engine plans
 * as those two columns.
 *
 * @param key the shard key of the one client a {@link Restriction#ONE_KEY} restriction selects
 */
record ClientAggregateQuery(List<Call> calls, boolean grouped, boolean having, Restriction restriction, long key,
                            Form form) {

    /** The numeric attributes of {@link Client} and their Java types. */
    static final Map<String, Class<?>> ATTRIBUTES = Map.of("tier", Integer.class, "visits", Short.class,
            "points", Long.class, "balance", BigDecimal.class, "rating", Double.class, "credits", BigInteger.class,
            "weight", Float.class);
    private static final List<String> ATTRIBUTE_NAMES = ATTRIBUTES.keySet().stream().sorted().toList();

    /**
     * The aggregates. {@code SUM_AS_LONG} is JPQL's SUM, built through Criteria with {@code sumAsLong}, which leaves
     * the type to SUM's own resolver (Long over integral types, Double over floating point ones), where Criteria's
     * {@code sum} types it as its argument: two Criteria SUMs of one shape and other types.
     */
    enum Function { COUNT, COUNT_DISTINCT, SUM, SUM_AS_LONG, AVG, MIN, MAX }

    /** Which rows the query reads. */
    enum Restriction {
        /** Every client, on every shard. */
        NONE,
        /** The clients of one tier left out, on every shard. */
        TIER_NOT,
        /** One client: pruned to its shard, where the query runs as written. */
        ONE_KEY
    }

    /** How the caller asks for the rows. */
    enum Form {
        /** {@code Object[]} rows (two or more selections). */
        ARRAY,
        /** {@link Tuple} rows. */
        TUPLE,
        /** The one selection's value, asked for with its Java type (one selection only). */
        TYPED,
        /** {@code Object}: the value, or an {@code Object[]} of several. */
        OBJECT
    }

    /** One aggregate call. */
    record Call(Function function, String attribute) {

        String jpql() {
            String path = "c." + attribute;
            return switch (function) {
                case COUNT_DISTINCT -> "count(distinct " + path + ")";
                case SUM_AS_LONG -> "sum(" + path + ")";
                default -> function.name().toLowerCase(java.util.Locale.ROOT) + "(" + path + ")";
            };
        }

        /**
         * The Java type Jakarta Persistence gives the call in JPQL: COUNT Long, AVG Double, SUM Long over integral
         * types, Double over floating point types, BigInteger and BigDecimal over those; MIN and MAX the attribute's.
         */
        Class<?> jpqlType() {
            Class<?> type = ATTRIBUTES.get(attribute);
            return switch (function) {
                case COUNT, COUNT_DISTINCT -> Long.class;
                case AVG -> Double.class;
                case MIN, MAX -> type;
                case SUM, SUM_AS_LONG -> type == Integer.class || type == Short.class || type == Long.class ? Long.class
                        : type == Float.class || type == Double.class ? Double.class : type;
            };
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        Expression<?> criteria(CriteriaBuilder cb, Root<Client> c) {
            Expression path = c.get(attribute);
            return switch (function) {
                case COUNT -> cb.count(path);
                case COUNT_DISTINCT -> cb.countDistinct(path);
                case SUM -> cb.sum(path);
                case SUM_AS_LONG -> ((HibernateCriteriaBuilder) cb).sumAsLong(path);
                case AVG -> cb.avg(path);
                case MIN -> cb.min(path);
                case MAX -> cb.max(path);
            };
        }
    }

    /** A random query; {@code clients} is the number of clients (their keys are 1 to clients). */
    static ClientAggregateQuery random(Random random, int clients) {
        int size = random.nextInt(10) < 5 ? 1 : random.nextInt(10) < 7 ? 2 : 3;
        List<Call> calls = new ArrayList<>();
        if (size == 2 && random.nextInt(3) == 0) {
            String attribute = pick(random, ATTRIBUTE_NAMES);
            calls.add(new Call(random.nextBoolean() ? Function.SUM : Function.SUM_AS_LONG, attribute));
            calls.add(new Call(Function.COUNT, attribute));
        }
        else {
            for (int i = 0; i < size; i++) {
                calls.add(new Call(pick(random, List.of(Function.values())), pick(random, ATTRIBUTE_NAMES)));
            }
        }
        boolean grouped = random.nextInt(5) < 2;
        boolean having = grouped && random.nextInt(3) == 0;
        int where = random.nextInt(10);
        Restriction restriction = where < 7 ? Restriction.NONE : where < 9 ? Restriction.TIER_NOT
                : Restriction.ONE_KEY;
        int selections = calls.size() + (grouped ? 1 : 0);
        List<Form> forms = new ArrayList<>(List.of(Form.TUPLE, Form.OBJECT));
        forms.add(selections == 1 ? Form.TYPED : Form.ARRAY);
        return new ClientAggregateQuery(calls, grouped, having, restriction, 1 + random.nextInt(clients),
                pick(random, forms));
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    String jpql() {
        StringBuilder jpql = new StringBuilder("select ");
        if (grouped) {
            jpql.append("c.tier, ");
        }
        jpql.append(calls.stream().map(Call::jpql).collect(Collectors.joining(", "))).append(" from Client c");
        switch (restriction) {
            case TIER_NOT -> jpql.append(" where c.tier <> 3");
            case ONE_KEY -> jpql.append(" where c.id = ").append(key);
            default -> { }
        }
        if (grouped) {
            jpql.append(" group by c.tier");
            if (having) {
                jpql.append(" having count(c) > 2");
            }
            jpql.append(" order by c.tier");
        }
        return jpql.toString();
    }

    /**
     * Whether the query sums a short attribute over more clients than a short's sum can hold: through Criteria, SUM
     * over a short is a Short (Jakarta Persistence), which one database cannot return either. Only per tier or over
     * one client are such sums small.
     */
    boolean sumsShortsOverManyClients() {
        return !grouped && restriction != Restriction.ONE_KEY && calls.stream().anyMatch(call ->
                call.function() == Function.SUM && ATTRIBUTES.get(call.attribute()) == Short.class);
    }

    /** The result type of the JPQL query. */
    Class<?> jpqlResultType() {
        return switch (form) {
            case ARRAY -> Object[].class;
            case TUPLE -> Tuple.class;
            case TYPED -> calls.get(0).jpqlType();
            case OBJECT -> Object.class;
        };
    }

    /** The query as Criteria, built on {@code cb} (of the factory that runs it). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    CriteriaQuery<?> criteria(CriteriaBuilder cb) {
        CriteriaQuery query = switch (form) {
            case ARRAY -> cb.createQuery(Object[].class);
            case TUPLE -> cb.createTupleQuery();
            case TYPED, OBJECT -> cb.createQuery(Object.class);
        };
        Root<Client> c = query.from(Client.class);
        c.alias("c");
        List<Selection<?>> selections = new ArrayList<>();
        if (grouped) {
            selections.add(c.get("tier"));
        }
        for (Call call : calls) {
            selections.add(call.criteria(cb, c));
        }
        if (form == Form.TYPED) {
            Expression<?> only = (Expression<?>) selections.get(0);
            query = cb.createQuery(only.getJavaType());
            c = query.from(Client.class);
            c.alias("c");
            query.select(calls.get(0).criteria(cb, c));
        }
        else {
            query.multiselect(selections);
        }
        switch (restriction) {
            case TIER_NOT -> query.where(cb.notEqual(c.get("tier"), 3));
            case ONE_KEY -> query.where(cb.equal(c.get("id"), key));
            default -> { }
        }
        if (grouped) {
            query.groupBy(c.get("tier"));
            if (having) {
                query.having(cb.gt(cb.count(c), 2L));
            }
            query.orderBy(cb.asc(c.get("tier")));
        }
        return query;
    }

    @Override
    public String toString() {
        return jpql() + " as " + form;
    }
}
