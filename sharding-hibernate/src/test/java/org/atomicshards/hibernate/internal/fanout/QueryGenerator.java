package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import jakarta.persistence.Tuple;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Join;
import jakarta.persistence.criteria.JoinType;
import jakarta.persistence.criteria.Nulls;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.ParameterExpression;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Selection;
import org.hibernate.query.SortDirection;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;
import org.hibernate.query.criteria.JpaExpression;
import org.hibernate.query.criteria.JpaOrder;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSortSpecification;

/**
 * Generates random query shapes over {@link Purchase} (and its {@link Account}) for the oracle: predicates on keys
 * and non-keys (literals and parameters, AND/OR/NOT), orderings with ties and nulls (default and explicit null
 * precedence, ignore-case), paging, entity/scalar/tuple/array/constructor projections, DISTINCT, global aggregates (COUNT, SUM,
 * MIN, MAX, AVG, COUNT/SUM/AVG DISTINCT, BIT_AND, BIT_OR), GROUP BY with HAVING and ORDER BY on keys and aggregates.
 */
final class QueryGenerator {

    enum Shape { ENTITY, SCALAR, TUPLE, ARRAY, DISTINCT, GLOBAL_AGGREGATE, GROUP_BY, CONSTRUCTOR, JOIN, ENTITY_JOIN }

    /**
     * One generated query.
     *
     * @param totalOrder whether the ORDER BY makes the row order unique (then the order is compared)
     * @param fetchSize  the fan-out's fetch size, or null for the default: small ones make the shards' rows arrive
     *                   in several fetches, and make a paged query read them all before merging rather than on demand
     */
    record Case(Shape shape, CriteriaQuery<?> query, Map<String, Object> parameters, Integer firstResult,
                Integer maxResults, boolean totalOrder, Integer fetchSize) {

        Case(Shape shape, CriteriaQuery<?> query, Map<String, Object> parameters, Integer firstResult,
             Integer maxResults, boolean totalOrder) {
            this(shape, query, parameters, firstResult, maxResults, totalOrder, null);
        }

        /** The query as HQL, and the sorts that ignore case (which HQL cannot spell, so its text leaves them out). */
        String describe() {
            SqmSelectStatement<?> statement = (SqmSelectStatement<?>) query;
            List<String> ignoringCase = statement.getQuerySpec().getSortSpecifications().stream()
                    .filter(SqmSortSpecification::isIgnoreCase)
                    .map(sort -> sort.getSortExpression().toHqlString()).toList();
            return shape + ": " + statement.toHqlString()
                    + (ignoringCase.isEmpty() ? "" : " (ignoring case: order by " + ignoringCase + ")")
                    + " params=" + parameters + " first=" + firstResult + " max=" + maxResults + " fetch=" + fetchSize;
        }
    }

    private final CriteriaBuilder cb;
    private final Random random;
    private final long keySpace;
    private final boolean bitAndNullWithoutValues;
    private Map<String, Object> parameters;

    QueryGenerator(CriteriaBuilder cb, long seed, long keySpace) {
        this(cb, seed, keySpace, false);
    }

    /**
     * @param bitAndNullWithoutValues whether {@code bit_and(x)} is generated as {@code case when count(x) > 0 then
     *        bit_and(x) end}: the answer the fan-out documents for a group without values (null, as H2 and PostgreSQL
     *        answer), for an oracle on MariaDB or MySQL, whose one database answers every bit of a BIGINT UNSIGNED
     *        there, which Hibernate cannot read into the attribute's type. Draws the same random numbers either way.
     */
    QueryGenerator(CriteriaBuilder cb, long seed, long keySpace, boolean bitAndNullWithoutValues) {
        this.cb = cb;
        this.random = new Random(seed);
        this.keySpace = keySpace;
        this.bitAndNullWithoutValues = bitAndNullWithoutValues;
    }

    Case next() {
        parameters = new LinkedHashMap<>();
        Shape shape = Shape.values()[random.nextInt(Shape.values().length)];
        switch (shape) {
            case ENTITY:
                return entity();
            case SCALAR:
                return scalar();
            case TUPLE:
                return tuple();
            case ARRAY:
                return array();
            case DISTINCT:
                return distinct();
            case GLOBAL_AGGREGATE:
                return globalAggregate();
            case GROUP_BY:
                return groupBy();
            case CONSTRUCTOR:
                return constructor();
            case ENTITY_JOIN:
                return entityJoin();
            default:
                return join();
        }
    }

    // ---- shapes

    private Case entity() {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(p);
        where(q, p, null);
        boolean total = orderBy(q, p, null);
        return paged(Shape.ENTITY, q, total);
    }

    private Case scalar() {
        CriteriaQuery<Object> q = cb.createQuery(Object.class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(p.get(pick("category", "amount", "price", "quantity", "accountId", "channel", "priority")));
        where(q, p, null);
        boolean total = orderBy(q, p, null);
        return paged(Shape.SCALAR, q, total);
    }

    private Case tuple() {
        CriteriaQuery<Tuple> q = cb.createTupleQuery();
        Root<Purchase> p = q.from(Purchase.class);
        q.select(cb.tuple(p.get("id").alias("id"), p.get("category").alias("category"), p.get("amount")));
        where(q, p, null);
        boolean total = orderBy(q, p, null);
        return paged(Shape.TUPLE, q, total);
    }

    private Case array() {
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        q.select(cb.array(p.get("category"), p.get("price"), p.get("accountId")));
        where(q, p, null);
        boolean total = orderBy(q, p, null);
        return paged(Shape.ARRAY, q, total);
    }

    private Case join() {
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        Join<Purchase, Account> a = p.join("account", random.nextBoolean() ? JoinType.INNER : JoinType.LEFT);
        q.select(cb.array(p.get("id"), a.get("region"), a.get("tier"), p.get("amount")));
        where(q, p, a);
        boolean total = orderBy(q, p, a);
        return paged(Shape.JOIN, q, total);
    }

    /**
     * Entities, paged in most cases (each shard returns first + max entities of which the merge keeps first + max in
     * all): through a join to their unit's root (a fetch join in half of those), or with DISTINCT (without a join:
     * the planner refuses SELECT DISTINCT of an entity with a join ordered by the entity's attributes).
     */
    @SuppressWarnings("unchecked")
    private Case entityJoin() {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        boolean distinct = random.nextInt(3) == 0;
        Join<Purchase, Account> a = null;
        if (!distinct) {
            JoinType type = random.nextBoolean() ? JoinType.INNER : JoinType.LEFT;
            a = random.nextBoolean() ? (Join<Purchase, Account>) p.<Purchase, Account>fetch("account", type)
                    : p.join("account", type);
        }
        q.select(p).distinct(distinct);
        where(q, p, a);
        boolean total = orderBy(q, p, a, !distinct);
        Integer first = random.nextInt(3) == 0 ? 0 : random.nextInt(30);
        Integer max = 1 + random.nextInt(40);
        if (random.nextInt(5) == 0) {
            first = null;
            max = null;
        }
        return new Case(Shape.ENTITY_JOIN, q, parameters, first, max, total, fetchSize());
    }

    /** Mostly the default fetch size; else one small enough that paged shards answer in several fetches. */
    private Integer fetchSize() {
        return random.nextInt(3) == 0 ? pickInt(1, 2, 5, 16) : null;
    }

    private int pickInt(int... options) {
        return options[random.nextInt(options.length)];
    }

    private Case distinct() {
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        List<Path<?>> selected = new ArrayList<>();
        selected.add(p.get("category"));
        if (random.nextBoolean()) {
            selected.add(p.get("quantity"));
        }
        q.select(cb.array(new ArrayList<Selection<?>>(selected))).distinct(true);
        where(q, p, null);
        List<Order> orders = new ArrayList<>();
        List<Path<?>> shuffled = new ArrayList<>(selected);
        java.util.Collections.shuffle(shuffled, random);
        int keys = random.nextInt(shuffled.size() + 1);
        for (int i = 0; i < keys; i++) {
            orders.add(order(shuffled.get(i)));
        }
        q.orderBy(orders);
        return paged(Shape.DISTINCT, q, keys == selected.size());
    }

    private Case globalAggregate() {
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        List<Selection<?>> selections = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        String distinctArgument = pick("category", "quantity", "amount");
        for (int i = 0; i < count; i++) {
            selections.add(aggregate(p, distinctArgument));
        }
        q.select(cb.array(selections));
        where(q, p, null);
        return new Case(Shape.GLOBAL_AGGREGATE, q, parameters, null, null, true);
    }

    private Case groupBy() {
        CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
        Root<Purchase> p = q.from(Purchase.class);
        List<Expression<?>> keys = new ArrayList<>();
        keys.add(p.get(pick("category", "quantity", "channel", "priority")));
        if (random.nextInt(3) == 0) {
            Expression<?> second = p.get(pick("quantity", "amount", "category"));
            if (!second.equals(keys.get(0))) {
                keys.add(second);
            }
        }
        List<Selection<?>> selections = new ArrayList<>(keys);
        List<Expression<?>> aggregates = new ArrayList<>();
        String distinctArgument = pick("amount", "accountId", "price");
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            Expression<?> aggregate = aggregate(p, distinctArgument);
            aggregates.add(aggregate);
            selections.add(aggregate);
        }
        q.select(cb.array(selections)).groupBy(keys);
        where(q, p, null);
        if (random.nextInt(3) > 0) {
            q.having(having(p, keys, distinctArgument));
        }
        List<Order> orders = new ArrayList<>();
        boolean total = false;
        if (random.nextInt(4) > 0) {
            List<Expression<?>> candidates = new ArrayList<>(keys);
            candidates.add(aggregates.get(random.nextInt(aggregates.size())));
            java.util.Collections.shuffle(candidates, random);
            for (Expression<?> candidate : candidates) {
                if (random.nextInt(3) > 0) {
                    orders.add(order(candidate));
                }
            }
            List<Expression<?>> ordered = new ArrayList<>();
            for (Order order : orders) {
                ordered.add(order.getExpression());
            }
            total = ordered.containsAll(keys);
        }
        q.orderBy(orders);
        return paged(Shape.GROUP_BY, q, total);
    }

    private Case constructor() {
        CriteriaQuery<CategoryTotal> q = cb.createQuery(CategoryTotal.class);
        Root<Purchase> p = q.from(Purchase.class);
        Path<String> category = p.get("category");
        Expression<Long> total = random.nextBoolean() ? cb.count(p) : cb.sum(p.get("accountId"));
        q.select(cb.construct(CategoryTotal.class, category, total)).groupBy(category);
        where(q, p, null);
        boolean ordered = random.nextBoolean();
        if (ordered) {
            q.orderBy(order(category));
        }
        return paged(Shape.CONSTRUCTOR, q, ordered);
    }

    private Case paged(Shape shape, CriteriaQuery<?> q, boolean totalOrder) {
        Integer first = null;
        Integer max = null;
        if (random.nextInt(5) < 2) {
            first = random.nextInt(4) == 0 ? 0 : random.nextInt(30);
            max = 1 + random.nextInt(40);
        }
        return new Case(shape, q, parameters, first, max, totalOrder, fetchSize());
    }

    // ---- parts

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Expression<?> aggregate(Root<Purchase> p, String distinctArgument) {
        Path numeric = p.get(pick("amount", "quantity", "price"));
        switch (random.nextInt(10)) {
            case 0:
                return cb.count(p);
            case 1:
                return cb.count(p.get(pick("amount", "category", "price")));
            case 2:
                return cb.sum(numeric);
            case 3:
                return random.nextBoolean() ? cb.min(p.get(pick("amount", "price")))
                        : cb.least(p.<Channel>get(pick("channel", "priority")));
            case 4:
                return random.nextBoolean() ? cb.least(p.<String>get("category")) : cb.greatest(p.<String>get("category"));
            case 5:
                return cb.max(numeric);
            case 6:
                return cb.avg(numeric);
            case 7:
                return cb.countDistinct(p.get(distinctArgument));
            case 8:
                // over positive values only: MariaDB folds the unsigned 64-bit image, which a negative one overflows
                String bitwise = pick("bit_and", "bit_or");
                Expression<Integer> folded = cb.function(bitwise, Integer.class, p.get("quantity"));
                if (bitAndNullWithoutValues && bitwise.equals("bit_and")) {
                    return cb.<Integer>selectCase().when(cb.gt(cb.count(p.get("quantity")), 0L), folded);
                }
                return folded;
            default:
                return cb.countDistinct(p.get(distinctArgument));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Predicate having(Root<Purchase> p, List<Expression<?>> keys, String distinctArgument) {
        Predicate first = havingAtom(p, keys, distinctArgument);
        switch (random.nextInt(4)) {
            case 0:
                return cb.and(first, havingAtom(p, keys, distinctArgument));
            case 1:
                return cb.or(first, havingAtom(p, keys, distinctArgument));
            case 2:
                return cb.not(first);
            default:
                return first;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Predicate havingAtom(Root<Purchase> p, List<Expression<?>> keys, String distinctArgument) {
        switch (random.nextInt(7)) {
            case 0:
                return cb.gt(cb.count(p), (long) random.nextInt(60));
            case 1:
                return cb.ge(cb.sum((Expression) p.get("amount")), parameter(Long.class,
                        (long) random.nextInt(900)));
            case 2:
                return cb.between(cb.avg((Expression) p.get("quantity")), 2.5, 3.5);
            case 3:
                return cb.isNull(cb.max((Expression) p.get("price")));
            case 4:
                return cb.lessThan(cb.countDistinct(p.get(distinctArgument)), (long) random.nextInt(40));
            case 5:
                Expression key = keys.get(0);
                if (key.getJavaType() != null && key.getJavaType().isEnum()) {
                    Object[] constants = key.getJavaType().getEnumConstants();
                    return key.in(constants[0], constants[2]);
                }
                return key.getJavaType() == String.class ? key.in("books", "games", "zebra", "Toys")
                        : key.in(1, 3, 5);
            default:
                return cb.le(cb.min((Expression) p.get("amount")), random.nextInt(10) - 3);
        }
    }

    private void where(CriteriaQuery<?> q, Root<Purchase> p, Join<Purchase, Account> a) {
        if (random.nextInt(5) == 0) {
            return;
        }
        Predicate predicate = atom(p, a);
        switch (random.nextInt(6)) {
            case 0:
                predicate = cb.and(predicate, atom(p, a));
                break;
            case 1:
                predicate = cb.or(predicate, atom(p, a));
                break;
            case 2:
                predicate = cb.and(predicate, cb.or(atom(p, a), atom(p, a)));
                break;
            case 3:
                predicate = cb.not(predicate);
                break;
            default:
                break;
        }
        q.where(predicate);
    }

    private Predicate atom(Root<Purchase> p, Join<Purchase, Account> a) {
        Path<Long> key = p.get("accountId");
        int choice = random.nextInt(a == null ? 14 : 19);
        switch (choice) {
            case 0:
                return cb.equal(key, randomKey());
            case 1:
                return cb.equal(key, parameter(Long.class, randomKey()));
            case 2:
                return key.in(randomKey(), randomKey(), randomKey());
            case 3: {
                long low = randomKey();
                return cb.between(key, low, low + random.nextInt((int) keySpace / 3));
            }
            case 4:
                return random.nextBoolean() ? cb.lessThan(key, parameter(Long.class, randomKey()))
                        : cb.greaterThanOrEqualTo(key, randomKey());
            case 5:
                return comparison(p.get("amount"), random.nextInt(40) - 5);
            case 6:
                return cb.between(p.get("quantity"), 1 + random.nextInt(3), 2 + random.nextInt(4));
            case 7:
                return p.get("category").in("books", "games", "Toys");
            case 8:
                return random.nextBoolean() ? cb.isNull(p.get("category")) : cb.isNotNull(p.get("amount"));
            case 9:
                return random.nextBoolean() ? cb.like(p.get("category"), "g%")
                        : p.get("channel").in(Channel.WEB, Channel.APP);
            case 10:
                return cb.gt(p.get("price"), parameter(BigDecimal.class, BigDecimal.valueOf(random.nextInt(5000), 2)));
            case 11:
                return cb.lessThan(p.get("id"), 1_000L + random.nextInt(2_000));
            case 12: // indexed (a member's attribute)
                return cb.equal(p.get("category"), parameter(String.class, pick("books", "Toys", "zebra", "none")));
            case 13:
                return random.nextBoolean() ? cb.equal(parameter(String.class, pick("games", "garden")), p.get("category"))
                        : p.get("category").in(parameter(String.class, pick("music", "tools")), cb.literal("books"));
            case 14:
                return cb.equal(a.get("region"), pick("eu", "us", "apac"));
            case 15:
                return cb.isNull(a.get("tier"));
            case 16: // indexed (the root's attribute, through the join)
                return cb.equal(a.get("score"), parameter(Long.class, (long) random.nextInt(52)));
            case 17:
                return a.get("score").in(random.nextInt(52), random.nextInt(52), 7);
            default:
                return cb.equal(a.get("id"), randomKey());
        }
    }

    private Predicate comparison(Expression<Integer> left, int value) {
        Expression<Integer> right = random.nextBoolean() ? cb.literal(value) : parameter(Integer.class, value);
        switch (random.nextInt(6)) {
            case 0:
                return cb.equal(left, right);
            case 1:
                return cb.notEqual(left, right);
            case 2:
                return cb.lessThan(left, right);
            case 3:
                return cb.lessThanOrEqualTo(left, right);
            case 4:
                return cb.greaterThan(left, right);
            default:
                return cb.greaterThanOrEqualTo(left, right);
        }
    }

    private <T> ParameterExpression<T> parameter(Class<T> type, T value) {
        String name = "p" + parameters.size();
        parameters.put(name, value);
        return cb.parameter(type, name);
    }

    /** Up to three sort keys with random direction and null precedence; returns whether the order is total. */
    private boolean orderBy(CriteriaQuery<?> q, Root<Purchase> p, Join<Purchase, Account> a) {
        return orderBy(q, p, a, true);
    }

    /**
     * @param ignoreCaseAllowed false for SELECT DISTINCT of an entity: an ignore-case sort orders by an expression
     *                          that is not selected, which PostgreSQL rejects and the fan-out planner refuses
     */
    private boolean orderBy(CriteriaQuery<?> q, Root<Purchase> p, Join<Purchase, Account> a,
                            boolean ignoreCaseAllowed) {
        List<Order> orders = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("category", "amount", "quantity", "price", "accountId",
                "channel", "priority"));
        java.util.Collections.shuffle(names, random);
        int keys = random.nextInt(4);
        for (int i = 0; i < keys; i++) {
            if (names.get(i).equals("category") && random.nextInt(4) == 0 && ignoreCaseAllowed) {
                orders.add(((HibernateCriteriaBuilder) cb).sort((JpaExpression<?>) p.get("category"),
                        random.nextBoolean() ? SortDirection.ASCENDING : SortDirection.DESCENDING,
                        Nulls.values()[random.nextInt(Nulls.values().length)], true));
            }
            else {
                orders.add(order(p.get(names.get(i))));
            }
        }
        if (a != null && random.nextBoolean()) {
            orders.add(order(a.get("region")));
        }
        boolean total = random.nextInt(10) < 7;
        if (total) {
            orders.add(order(p.get("id")));
        }
        q.orderBy(orders);
        return total;
    }

    private Order order(Expression<?> expression) {
        Order order = random.nextBoolean() ? cb.asc(expression) : cb.desc(expression);
        switch (random.nextInt(4)) {
            case 0:
                return ((JpaOrder) order).nullPrecedence(Nulls.FIRST);
            case 1:
                return ((JpaOrder) order).nullPrecedence(Nulls.LAST);
            default:
                return order;
        }
    }

    private long randomKey() {
        return random.nextInt((int) keySpace);
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }
}
