package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Expression;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.FanOutResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every aggregate over an attribute of each numeric Java type, through JPQL and Criteria, globally and per group: the
 * merged values have the Java classes one database's values have, and equal them. A subclass names the database.
 */
abstract class AggregateResultsContract {

    static final List<String> AGGREGATES = List.of("count", "sum", "min", "max", "avg");
    /** Attributes of {@link Client}: int, short, long, BigDecimal (12,2), double. */
    static final List<String> ATTRIBUTES = List.of("tier", "visits", "points", "balance", "rating");

    abstract ClientFixture fixture();

    /** Whether the database accepts {@code bit_and(distinct x)} and {@code bit_or(distinct x)} (MariaDB does not). */
    boolean acceptsBitwiseDistinct() {
        return true;
    }

    static Stream<Arguments> aggregatesAndAttributes() {
        List<Arguments> arguments = new ArrayList<>();
        for (String aggregate : AGGREGATES) {
            for (String attribute : ATTRIBUTES) {
                arguments.add(Arguments.of(aggregate, attribute));
            }
        }
        return arguments.stream();
    }

    @ParameterizedTest(name = "{0}(c.{1})")
    @MethodSource("aggregatesAndAttributes")
    void jpqlOverAllRows(String aggregate, String attribute) {
        String hql = "select " + aggregate + "(c." + attribute + ") from Client c";
        assertFanOutEqualsOneDatabase(hql);
    }

    @ParameterizedTest(name = "{0}(c.{1}) per tier, ordered by it")
    @MethodSource("aggregatesAndAttributes")
    void jpqlPerGroupOrderedByTheAggregate(String aggregate, String attribute) {
        String hql = "select c.tier, " + aggregate + "(c." + attribute + ") from Client c group by c.tier"
                + " having " + aggregate + "(c." + attribute + ") is not null order by " + aggregate + "(c."
                + attribute + "), c.tier";
        assertSameResults(hql, fixture().sharded.fanOut().createQuery(hql, Object[].class).getResultList(),
                fixture().onReference(s -> s.createQuery(hql, Object[].class).getResultList()));
    }

    @ParameterizedTest(name = "{0}(distinct c.{1}) per tier")
    @MethodSource("aggregatesAndAttributes")
    void jpqlOverDistinctValuesPerGroup(String aggregate, String attribute) {
        String hql = "select c.tier, " + aggregate + "(distinct c." + attribute + ") from Client c group by c.tier"
                + " order by c.tier";
        assertSameResults(hql, fixture().sharded.fanOut().createQuery(hql, Object[].class).getResultList(),
                fixture().onReference(s -> s.createQuery(hql, Object[].class).getResultList()));
    }

    @ParameterizedTest(name = "criteria {0}(c.{1})")
    @MethodSource("aggregatesAndAttributes")
    void criteriaOverAllRows(String aggregate, String attribute) {
        CriteriaBuilder cb = fixture().sharded.fanOut().criteriaBuilder();
        CriteriaQuery<Object> query = cb.createQuery(Object.class);
        Root<Client> c = query.from(Client.class);
        query.select(aggregate(cb, aggregate, c.get(attribute)));
        assertSameResults(aggregate + "(" + attribute + ")", fixture().sharded.fanOut().createQuery(query)
                .getResultList(), fixture().onReference(s -> s.createQuery(query).getResultList()));
    }

    /**
     * every/all and any/some (bool_and/bool_or on H2 and PostgreSQL, emulated on MariaDB): globally, per group, with
     * FILTER, in HAVING and ORDER BY, over a nullable attribute (UNKNOWN ignored) and over no row (null).
     */
    static Stream<String> booleanAggregates() {
        return Stream.of(
                "select every(c.visits > 10), any(c.visits > 290), every(c.balance > -4000),"
                        + " any(c.balance < -4900) from Client c",
                "select some(c.visits > 290), all(c.visits >= 0), every(c.visits >= 5) from Client c",
                "select c.tier, every(c.visits > 20), any(c.visits > 280), count(c) from Client c group by c.tier"
                        + " order by c.tier",
                "select c.tier, every(c.balance > 0) filter (where c.visits > 100) from Client c group by c.tier"
                        + " order by c.tier",
                "select c.tier, min(c.visits) from Client c group by c.tier having every(c.visits > 15) = true"
                        + " order by c.tier",
                "select c.tier, any(c.visits > 250) from Client c group by c.tier"
                        + " order by any(c.visits > 250), c.tier",
                "select every(c.visits > 10), any(c.visits > 10) from Client c where c.id < 0",
                "select every(c.visits > 10), any(c.visits > 10) from Client c where c.id < 4");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("booleanAggregates")
    void everyAndAnyOverAllShards(String hql) {
        assertFanOutEqualsOneDatabase(hql);
    }

    /**
     * bit_and and bit_or: over each integer type, globally, per group, with FILTER, over values that are null in some
     * groups, in HAVING and ORDER BY, where only some shards have rows, and over no row (bit_or: null on H2 and
     * PostgreSQL, 0 on MariaDB).
     */
    static Stream<String> bitwiseAggregates() {
        return Stream.of(
                "select bit_and(c.tier), bit_or(c.tier), bit_and(c.visits), bit_or(c.visits), bit_and(c.points),"
                        + " bit_or(c.points) from Client c",
                "select c.tier, bit_or(c.visits), bit_and(c.visits + 512), bit_or(c.points) from Client c"
                        + " group by c.tier order by c.tier",
                "select c.tier, bit_or(c.visits) filter (where c.visits < 100) from Client c group by c.tier"
                        + " order by c.tier",
                "select c.tier, bit_or(case when c.balance is not null and c.visits < 40 then c.visits end),"
                        + " count(c) from Client c group by c.tier order by c.tier",
                "select c.tier, count(c) from Client c group by c.tier having bit_and(c.visits + 256) > 256"
                        + " order by c.tier",
                "select c.tier, bit_and(c.visits + 1024) from Client c group by c.tier"
                        + " order by bit_and(c.visits + 1024) desc, c.tier",
                "select bit_or(c.visits), bit_or(c.points) from Client c where c.id < 0",
                "select bit_or(c.visits), count(distinct c.tier) from Client c where c.id < 0",
                "select bit_and(c.tier), bit_and(c.visits), bit_and(c.points), bit_or(c.points) from Client c"
                        + " where c.id < 4",
                "select c.tier, bit_and(c.visits + 1) filter (where c.visits < 60) from Client c group by c.tier"
                        + " order by c.tier");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bitwiseAggregates")
    void bitwiseAggregatesOverAllShards(String hql) {
        assertFanOutEqualsOneDatabase(hql);
    }

    /**
     * Over no row every shard answers null, so the fan-out does; one H2 or PostgreSQL database does too, while one
     * MariaDB database answers every bit of a BIGINT UNSIGNED, which Hibernate cannot read into the attributes.
     */
    @Test
    void bitAndOverNoRowIsNull() {
        String hql = "select bit_and(c.tier), bit_and(c.visits), bit_and(c.points) from Client c where c.id < 0";
        Object[] merged = (Object[]) fixture().sharded.fanOut().createQuery(hql, Object.class).getSingleResult();
        assertThat(merged).containsOnlyNulls();
        if (answersBitAndOverNoRowWithNull()) {
            assertFanOutEqualsOneDatabase(hql);
        }
    }

    /**
     * The same when the shard key prunes the query to one shard (a key no client has): it answers as over several,
     * null, rather than failing on MariaDB, where the query as written returns a value Hibernate cannot read.
     */
    @Test
    void bitAndOverNoRowOnOneShardIsNull() {
        String hql = "select bit_and(c.tier), bit_and(c.visits), count(c) from Client c where c.id = -7";
        FanOutResult<Object> result = fixture().sharded.fanOut().createQuery(hql, Object.class).execute();
        assertThat(result.queriedShards()).as("pruned to the key's shard").hasSize(1);
        assertThat((Object[]) result.rows().get(0)).containsExactly(null, null, 0L);
        if (answersBitAndOverNoRowWithNull()) {
            assertFanOutEqualsOneDatabase(hql);
        }
    }

    /** Whether {@code bit_and} over no row is null on one database (MariaDB answers every bit set). */
    boolean answersBitAndOverNoRowWithNull() {
        return true;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "select c.tier, bit_or(distinct c.visits), bit_and(distinct c.visits + 512) from Client c group by c.tier"
                + " order by c.tier",
        "select bit_or(distinct c.points), bit_and(distinct c.tier + 16) from Client c"})
    void bitwiseAggregatesOverDistinctValues(String hql) {
        assumeTrue(acceptsBitwiseDistinct(), "the database refuses DISTINCT in bit_and and bit_or");
        assertFanOutEqualsOneDatabase(hql);
    }

    @ParameterizedTest(name = "criteria {0}(c.{1})")
    @CsvSource({"bit_and, tier", "bit_or, visits", "bit_or, points"})
    void criteriaBitwiseAggregate(String function, String attribute) {
        CriteriaBuilder cb = fixture().sharded.fanOut().criteriaBuilder();
        CriteriaQuery<Object[]> query = cb.createQuery(Object[].class);
        Root<Client> c = query.from(Client.class);
        Expression<?> folded = cb.function(function, Long.class, c.get(attribute));
        query.multiselect(c.get("tier"), folded).groupBy(c.get("tier")).orderBy(cb.asc(folded), cb.asc(c.get("tier")));
        assertSameResults(function + "(" + attribute + ")", fixture().sharded.fanOut().createQuery(query)
                .getResultList(), fixture().onReference(s -> s.createQuery(query).getResultList()));
    }

    private void assertFanOutEqualsOneDatabase(String hql) {
        assertSameResults(hql, fixture().sharded.fanOut().createQuery(hql, Object.class).getResultList(),
                fixture().onReference(s -> s.createQuery(hql, Object.class).getResultList()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Expression<?> aggregate(CriteriaBuilder cb, String aggregate, Path<?> path) {
        Expression number = path;
        switch (aggregate) {
            case "count":
                return cb.count(path);
            case "sum":
                return cb.sum(number);
            case "min":
                return cb.min(number);
            case "max":
                return cb.max(number);
            default:
                return cb.avg(number);
        }
    }

    /** Same rows in the same order, each value of the same Java class and equal (exactly, also for AVG). */
    static void assertSameResults(String query, List<?> merged, List<?> oneDatabase) {
        assertThat(describe(merged)).as(query).isEqualTo(describe(oneDatabase));
    }

    private static List<String> describe(List<?> rows) {
        List<String> result = new ArrayList<>();
        for (Object row : rows) {
            Object[] values = row instanceof Object[] array ? array : new Object[] {row};
            List<String> described = new ArrayList<>();
            for (Object value : values) {
                described.add(value == null ? "null" : value.getClass().getSimpleName() + ":" + value);
            }
            result.add(String.join(", ", described));
        }
        return result;
    }
}
