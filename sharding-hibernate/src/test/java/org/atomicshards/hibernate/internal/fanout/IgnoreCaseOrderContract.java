package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Nulls;
import jakarta.persistence.criteria.Order;
import jakarta.persistence.criteria.Path;
import jakarta.persistence.criteria.Root;
import jakarta.persistence.criteria.Subquery;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.hibernate.query.SortDirection;
import org.hibernate.query.criteria.HibernateCriteriaBuilder;
import org.hibernate.query.criteria.JpaExpression;
import org.hibernate.query.criteria.JpaSubQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A criteria query sorted ignoring case ({@link HibernateCriteriaBuilder#sort} with {@code ignoreCase}) run after the
 * same query sorted by case, and the other way round, on two shards of a database kind and collation: each answer
 * equals one database's answer to that query, run afresh.
 *
 * <p>Hibernate's query plan cache takes the two for one query: {@code SqmSortSpecification#isCompatible} and
 * {@code #cacheHashCode} (Hibernate 7.4) leave the ignore-case flag out, and a criteria statement's plan is cached by
 * its structure. A shard statement that reused the other query's SQL would sort its rows by another order than the
 * one the merge compares, or return other rows. The strings include the ligature {@code ﬁ} (U+FB01), an emoji and
 * strings that differ in case only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IgnoreCaseOrderContract {

    private static final String[] CATEGORIES = {"\uFB01ne", "Fine", "fine", "FINE", "fi", "apple", "Apple",
        "banana", "Banana", "\uD83D\uDE80", "zebra", "Zebra"};

    private RuntimeFactories.Sharded sharded;
    private RuntimeFactories.Sharded single;
    private long accountA;
    private long accountB;

    /** The shard databases' kind. */
    abstract DatabaseKind kind();

    /** The {@code create database} options that set a collation the merge orders strings by. */
    abstract String createOptions();

    /** A query built with a factory's criteria builder, sorted ignoring case or not. */
    @FunctionalInterface
    interface Shape {
        CriteriaQuery<?> build(HibernateCriteriaBuilder cb, boolean ignoreCase);
    }

    @BeforeAll
    void build() throws SQLException {
        TestDataSet data = new TestDataSet(14L, 16, 0);
        sharded = RuntimeFactories.build(kind(), PolicyKind.HASH, 2, data, createOptions(),
                FanOutSettings.defaults());
        single = RuntimeFactories.build(kind(), PolicyKind.HASH, 1, data, createOptions(),
                FanOutSettings.defaults());
        ShardedSessionFactory factory = sharded.factory();
        ShardId first = factory.shards().get(0);
        accountA = data.accounts.stream().mapToLong(TestDataSet.AccountRow::id)
                .filter(key -> factory.shardFor(Account.class, key).orElseThrow().equals(first))
                .findFirst().orElseThrow();
        accountB = data.accounts.stream().mapToLong(TestDataSet.AccountRow::id)
                .filter(key -> !factory.shardFor(Account.class, key).orElseThrow().equals(first))
                .findFirst().orElseThrow();
        for (int i = 0; i < 2 * CATEGORIES.length; i++) {
            long account = i % 3 == 0 ? accountB : accountA;
            Object[] purchase = {100L + i, account, CATEGORIES[i % CATEGORIES.length]};
            insertPurchase(sharded, factory.shardFor(Account.class, account).orElseThrow(), purchase);
            insertPurchase(single, single.factory().shards().get(0), purchase);
        }
        // Reference data on every shard: "Banana" sorts first by case, "apple" ignoring case.
        for (RuntimeFactories.Sharded target : List.of(sharded, single)) {
            for (ShardId shard : target.factory().shards()) {
                insertCountry(target, shard, "xa", "apple");
                insertCountry(target, shard, "xb", "Banana");
            }
        }
    }

    private static void insertPurchase(RuntimeFactories.Sharded target, ShardId shard, Object[] row)
            throws SQLException {
        try (Connection connection = target.databases().connect(shard.name());
             PreparedStatement insert = connection.prepareStatement("insert into purchase (id, account_id, amount,"
                     + " category, quantity) values (?, ?, 1, ?, 1)")) {
            insert.setLong(1, (Long) row[0]);
            insert.setLong(2, (Long) row[1]);
            insert.setString(3, (String) row[2]);
            insert.executeUpdate();
        }
    }

    private static void insertCountry(RuntimeFactories.Sharded target, ShardId shard, String code, String name)
            throws SQLException {
        try (Connection connection = target.databases().connect(shard.name());
             PreparedStatement insert = connection.prepareStatement("insert into country (code, name)"
                     + " values (?, ?)")) {
            insert.setString(1, code);
            insert.setString(2, name);
            insert.executeUpdate();
        }
    }

    @AfterAll
    void close() {
        try {
            sharded.close();
        }
        finally {
            single.close();
        }
    }

    Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("merged: ORDER BY category, both category and lower(category) selected",
                        (Shape) (cb, ignoreCase) -> {
                            CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
                            Root<Purchase> p = q.from(Purchase.class);
                            q.select(cb.array(p.get("category"), cb.lower(p.get("category")), p.get("id")));
                            q.orderBy(sort(cb, p.get("category"), ignoreCase), cb.asc(p.get("id")));
                            return q;
                        }),
                Arguments.of("one shard, run as written: the entity ORDER BY category",
                        (Shape) (cb, ignoreCase) -> {
                            CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
                            Root<Purchase> p = q.from(Purchase.class);
                            q.select(p).where(cb.equal(p.get("accountId"), accountA));
                            q.orderBy(sort(cb, p.get("category"), ignoreCase), cb.asc(p.get("id")));
                            return q;
                        }),
                Arguments.of("merged: a subquery's ORDER BY picks the rows",
                        (Shape) (cb, ignoreCase) -> {
                            CriteriaQuery<Object[]> q = cb.createQuery(Object[].class);
                            Root<Purchase> p = q.from(Purchase.class);
                            Subquery<String> first = q.subquery(String.class);
                            Root<Country> c = first.from(Country.class);
                            first.select(c.get("name"));
                            ((JpaSubQuery<String>) first)
                                    .orderBy(sort(cb, c.get("name"), ignoreCase)).fetch(1);
                            q.select(cb.array(p.get("category"), p.get("id")))
                                    .where(cb.equal(p.get("category"), first));
                            q.orderBy(cb.asc(p.get("id")));
                            return q;
                        }));
    }

    private static Order sort(HibernateCriteriaBuilder cb, Path<?> path, boolean ignoreCase) {
        return cb.sort((JpaExpression<?>) path, SortDirection.ASCENDING, Nulls.NONE, ignoreCase);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void eachSortEqualsOneDatabaseWhicheverRanBefore(String name, Shape shape) {
        List<List<Object>> byCase = oneDatabase(shape, false);
        List<List<Object>> ignoringCase = oneDatabase(shape, true);
        assertThat(ignoringCase).as("the two sorts answer differently on these rows").isNotEqualTo(byCase);

        assertThat(merged(shape, false)).isEqualTo(byCase);
        assertThat(merged(shape, true)).isEqualTo(ignoringCase);
        assertThat(merged(shape, false)).isEqualTo(byCase);
    }

    private List<List<Object>> merged(Shape shape, boolean ignoreCase) {
        return asLists(sharded.factory().fanOut()
                .createQuery(shape.build(sharded.factory().sessionFactory().getCriteriaBuilder(), ignoreCase))
                .getResultList());
    }

    /** One database's answer, translated afresh (not through a plan cached for the other sort). */
    private List<List<Object>> oneDatabase(Shape shape, boolean ignoreCase) {
        try (var session = single.factory().openReadOnlySession(single.factory().shards().get(0))) {
            return asLists(session.createQuery(shape.build(single.factory().sessionFactory().getCriteriaBuilder(),
                    ignoreCase)).setQueryPlanCacheable(false).getResultList());
        }
    }

    /** Each row as a list: an array's elements, a purchase's category and id. */
    private static List<List<Object>> asLists(List<?> rows) {
        List<List<Object>> result = new ArrayList<>();
        for (Object row : rows) {
            result.add(row instanceof Purchase purchase ? List.of(purchase.getCategory(), purchase.getId())
                    : Arrays.asList((Object[]) row));
        }
        return result;
    }
}
