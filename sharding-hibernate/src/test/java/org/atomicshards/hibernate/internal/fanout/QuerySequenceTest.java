package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.persistence.TypedQuery;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.internal.fanout.aggregate.Values;
import org.atomicshards.testing.DatabaseKind;
import org.hibernate.query.SelectionQuery;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Many fan-out queries in sequence and in parallel on one factory: whatever ran before, each query's merged result
 * equals the one database's. Guards against state shared between queries (Hibernate's query plan cache, which keys
 * the shard statements by their structure, and the engine's plan cache).
 */
class QuerySequenceTest {

    /** An HQL query with its parameter values (named, or positional when the name is a number). */
    private record Shape(String hql, Map<String, Object> parameters) {
        static Shape of(String hql, Object... nameValuePairs) {
            Map<String, Object> parameters = new LinkedHashMap<>();
            for (int i = 0; i < nameValuePairs.length; i += 2) {
                parameters.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
            }
            return new Shape(hql, parameters);
        }

        boolean ordered() {
            return hql.contains(" order by ") && !hql.contains("group by");
        }

        @Override
        public String toString() {
            return hql + " " + parameters;
        }
    }

    private static final List<Shape> SHAPES = List.of(
            Shape.of("select c.tier from Client c where c.createdAt is not null group by c.tier having count(c) > :p0"
                    + " order by c.tier asc", "p0", 8L),
            Shape.of("select c.tier, count(c) from Client c where c.createdAt is not null group by c.tier"),
            Shape.of("select c.tier, count(c) from Client c where c.createdAt is not null group by c.tier"
                    + " having count(c) > :p0", "p0", 12L),
            Shape.of("select c.tier, count(c) from Client c where c.createdAt is not null group by c.tier"
                    + " having count(c) > 8 order by c.tier"),
            Shape.of("select c.tier, count(c) from Client c group by c.tier order by c.tier"),
            Shape.of("select count(c) from Client c where c.tier > :t", "t", 4),
            Shape.of("select count(c) from Client c where c.tier > ?1", "1", 6),
            Shape.of("select count(c) from Client c"),
            Shape.of("select c.id from Client c where c.tier = :t order by c.id", "t", 3),
            Shape.of("select c.id from Client c where c.tier = 3 order by c.id"),
            Shape.of("select c from Client c where c.points > :p order by c.points desc, c.id", "p", 500_000_000L),
            Shape.of("select max(c.points), min(c.balance) from Client c where c.createdAt is not null"),
            Shape.of("select sum(c.points) from Client c where c.tier between :lo and :hi", "lo", 2, "hi", 5),
            Shape.of("select c.tier, sum(c.points) from Client c group by c.tier having sum(c.points) > :s"
                    + " order by c.tier", "s", 8_000_000_000L),
            Shape.of("select c.tier, max(c.balance) from Client c where c.balance is not null group by c.tier"
                    + " order by max(c.balance) desc"),
            Shape.of("select distinct c.tier from Client c where c.visits > :v order by c.tier", "v", (short) 150),
            Shape.of("select o.id from ClientOrder o where o.amount > :a order by o.id", "a", 30),
            Shape.of("select o.client.id, count(o) from ClientOrder o group by o.client.id having count(o) >= :n",
                    "n", 5L),
            Shape.of("select count(distinct c.tier) from Client c where c.createdAt is null"),
            Shape.of("select c.tier, count(distinct c.visits) from Client c group by c.tier"),
            Shape.of("select c.id from Client c order by c.id offset 10 rows fetch first 5 rows only"),
            Shape.of("select c.id from Client c where c.id in :ids order by c.id", "ids", List.of(3L, 17L, 44L, 90L)),
            Shape.of("select c.visits from Client c where c.tier = :t and c.createdAt is not null"
                    + " order by c.visits desc, c.id", "t", 7),
            Shape.of("select min(c.createdAt), max(c.createdAt) from Client c"),
            Shape.of("select c.tier, min(c.visits), max(c.points) from Client c group by c.tier order by c.tier desc"),
            Shape.of("select o.amount, count(o) from ClientOrder o group by o.amount having count(o) between :lo"
                    + " and :hi order by o.amount", "lo", 10L, "hi", 20L),
            Shape.of("select count(o) from ClientOrder o where o.client.tier = :t", "t", 2),
            Shape.of("select o.amount from ClientOrder o where o.client.id = :id order by o.amount", "id", 42L),
            Shape.of("select c.tier, avg(c.balance) from Client c group by c.tier having avg(c.balance) > :a"
                    + " order by avg(c.balance)", "a", 4000.0),
            Shape.of("select avg(c.points), avg(c.visits) from Client c where c.createdAt is not null"),
            Shape.of("select distinct o from ClientOrder o where o.amount < :a order by o.client.id, o.id", "a", 9));

    private static ClientFixture fixture;
    private static Map<Shape, List<Object>> expected;

    @BeforeAll
    static void create() {
        fixture = ClientFixture.h2();
        expected = new LinkedHashMap<>();
        for (Shape shape : SHAPES) {
            expected.put(shape, fixture.onReference(session -> {
                SelectionQuery<Object> query = session.createSelectionQuery(shape.hql(), Object.class);
                shape.parameters().forEach((name, value) -> bind(query, name, value));
                return normalize(query.getResultList(), shape);
            }));
        }
    }

    @Test
    void theReportedPairOnAFreshFactory() {
        ClientFixture fresh = ClientFixture.create(DatabaseKind.H2, 60);
        try {
            List<Integer> tiers = fresh.sharded.fanOut().createQuery(SHAPES.get(0).hql(), Integer.class)
                    .setParameter("p0", 2L).getResultList();
            List<Object[]> counts = fresh.sharded.fanOut().entityManager().createQuery(SHAPES.get(1).hql(),
                    Object[].class).getResultList();

            assertThat(tiers).isNotEmpty();
            assertThat(counts).hasSizeGreaterThanOrEqualTo(tiers.size());
        }
        finally {
            fresh.close();
        }
    }

    @Test
    void everyShapeInSeveralOrdersEqualsOneDatabase() {
        Random random = new Random(7);
        for (int round = 0; round < 3; round++) {
            List<Shape> order = new ArrayList<>(SHAPES);
            if (round == 1) {
                Collections.reverse(order);
            }
            else if (round > 1) {
                Collections.shuffle(order, random);
            }
            for (Shape shape : order) {
                assertThat(run(shape, round % 2 == 0)).as("%s (round %d)", shape, round)
                        .isEqualTo(expected.get(shape));
            }
        }
    }

    @Test
    void everyShapeFromConcurrentThreadsEqualsOneDatabase() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                List<Shape> order = new ArrayList<>(SHAPES);
                Collections.shuffle(order, new Random(100 + t));
                boolean entityManager = t % 2 == 0;
                done.add(threads.submit(() -> {
                    for (Shape shape : order) {
                        assertThat(run(shape, entityManager)).as("%s", shape).isEqualTo(expected.get(shape));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        }
        finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCriteriaQueryChangedAfterItRanIsPlannedAgain() {
        CriteriaBuilder cb = fixture.sharded.fanOut().criteriaBuilder();
        CriteriaQuery<Long> count = cb.createQuery(Long.class);
        Root<Client> c = count.from(Client.class);
        count.select(cb.count(c));
        Long all = fixture.sharded.fanOut().createQuery(count).getSingleResult();

        count.where(cb.equal(c.get("tier"), 3));
        Long tierThree = fixture.sharded.fanOut().createQuery(count).getSingleResult();

        assertThat(all).isEqualTo(fixture.onReference(s -> s.createQuery("select count(c) from Client c",
                Long.class).getSingleResult()));
        assertThat(tierThree).isEqualTo(fixture.onReference(s -> s.createQuery("select count(c) from Client c"
                + " where c.tier = 3", Long.class).getSingleResult())).isLessThan(all);
    }

    private static List<Object> run(Shape shape, boolean throughEntityManager) {
        if (throughEntityManager) {
            TypedQuery<Object> query = fixture.sharded.fanOut().entityManager().createQuery(shape.hql(),
                    Object.class);
            shape.parameters().forEach((name, value) -> {
                if (Character.isDigit(name.charAt(0))) {
                    query.setParameter(Integer.parseInt(name), value);
                }
                else {
                    query.setParameter(name, value);
                }
            });
            return normalize(query.getResultList(), shape);
        }
        var query = fixture.sharded.fanOut().createQuery(shape.hql(), Object.class);
        shape.parameters().forEach((name, value) -> {
            if (Character.isDigit(name.charAt(0))) {
                query.setParameter(Integer.parseInt(name), value);
            }
            else {
                query.setParameter(name, value);
            }
        });
        return normalize(query.getResultList(), shape);
    }

    private static void bind(SelectionQuery<Object> query, String name, Object value) {
        if (Character.isDigit(name.charAt(0))) {
            query.setParameter(Integer.parseInt(name), value);
        }
        else {
            query.setParameter(name, value);
        }
    }

    /** Rows as comparable strings (numbers by value, entities by id); sorted unless the query orders them. */
    private static List<Object> normalize(List<?> rows, Shape shape) {
        List<Object> result = new ArrayList<>();
        for (Object row : rows) {
            Object[] values = row instanceof Object[] array ? array : new Object[] {row};
            List<String> normalized = new ArrayList<>();
            for (Object value : values) {
                normalized.add(value instanceof Number number
                        ? Values.toBigDecimal(number).stripTrailingZeros().toPlainString()
                        : String.valueOf(value));
            }
            result.add(normalized.toString());
        }
        if (!shape.ordered()) {
            result.sort(Comparator.comparing(String::valueOf));
        }
        return result;
    }
}
