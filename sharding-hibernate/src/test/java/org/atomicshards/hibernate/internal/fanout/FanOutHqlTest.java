package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.ShardedQuery;
import org.hibernate.query.SelectionQuery;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** HQL/JPQL across shards, with named and positional parameters, compared with one database. */
class FanOutHqlTest {

    static Stream<Arguments> queries() {
        return Stream.of(
                ordered("select p from Purchase p where p.amount > :min order by p.amount desc, p.id",
                        Map.of("min", 20)),
                ordered("select p.category, p.amount from Purchase p where p.category in :cats order by 2, 1, p.id",
                        Map.of("cats", List.of("books", "tools"))),
                ordered("select p.id from Purchase p where p.quantity = ?1 order by p.price nulls first, p.id",
                        Map.of("1", 3)),
                unordered("select sum(distinct p.amount), avg(distinct p.quantity), count(distinct p.category),"
                        + " count(*) from Purchase p", Map.of()),
                ordered("select p.category, sum(distinct p.amount), avg(distinct p.amount) from Purchase p"
                        + " group by p.category order by p.category", Map.of()),
                ordered("select new org.atomicshards.hibernate.internal.fanout.CategoryTotal(p.category, count(p))"
                        + " from Purchase p group by p.category having count(p) >= :n order by p.category",
                        Map.of("n", 90L)),
                ordered("select p.category as c, max(p.price) as m from Purchase p group by p.category"
                        + " order by m desc nulls last, c", Map.of()),
                ordered("select a.region, count(p), min(p.amount) from Purchase p join p.account a"
                        + " where a.tier is not null group by a.region order by a.region nulls last", Map.of()),
                ordered("select p from Purchase p order by p.category, p.id limit 7 offset 30", Map.of()),
                ordered("select p from Purchase p where p.accountId = :key order by p.id", Map.of("key", 17L)),
                unordered("select count(p) from Purchase p where p.accountId in (3, 5, 8, 13, 21)", Map.of()),
                ordered("select distinct p.category from Purchase p order by p.category nulls last", Map.of()),
                ordered("select p.quantity, count(p) from Purchase p group by p.quantity"
                        + " having sum(p.amount) > 500 and not (count(p) < 300) order by count(p) desc, 1",
                        Map.of()),
                unordered("select c from Country c", Map.of()),
                unordered("select c.name from Purchase p, Country c where c.code = 'de' and p.accountId = 11",
                        Map.of()),
                ordered("select p from Purchase p where exists (select 1 from Country c where c.code = 'fr')"
                        + " and p.amount < 0 order by p.id", Map.of()),
                ordered("select a from Account a where exists (select p from a.purchases p where p.amount > 33)"
                        + " order by a.id", Map.of()),
                unordered("select max(p.category), min(p.category), sum(p.price), avg(p.price) from Purchase p"
                        + " where p.category < 'm'", Map.of()),
                unordered("select count(p), sum(p.amount), avg(p.amount) from Purchase p where p.amount > 1000",
                        Map.of()));
    }

    private static Arguments ordered(String hql, Map<String, Object> parameters) {
        return Arguments.of(hql, parameters, true);
    }

    private static Arguments unordered(String hql, Map<String, Object> parameters) {
        return Arguments.of(hql, parameters, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void mergedResultEqualsOneDatabase(String hql, Map<String, Object> parameters, boolean ordered) {
        ShardFixture fixture = ShardFixture.h2();
        for (ShardFixture.Layout layout : List.of(fixture.layout(TestRouter.Policy.HASH, 3),
                fixture.layout(TestRouter.Policy.RANGE, 8))) {
            ShardedQuery<Object> query = layout.queries().createQuery(hql, Object.class);
            parameters.forEach((name, value) -> bind(query, name, value));
            List<Object> expected = Rows.normalize(fixture.onOracle(session -> {
                SelectionQuery<Object> oracle = session.createSelectionQuery(hql, Object.class);
                parameters.forEach((name, value) -> {
                    if (Character.isDigit(name.charAt(0))) {
                        oracle.setParameter(Integer.parseInt(name), value);
                    }
                    else {
                        oracle.setParameter(name, value);
                    }
                });
                return oracle.getResultList();
            }));
            List<Object> actual = Rows.normalize(query.getResultList());
            if (ordered) {
                assertThat(actual).as(layout.name()).isEqualTo(expected);
            }
            else {
                assertThat(Rows.sorted(actual)).as(layout.name()).isEqualTo(Rows.sorted(expected));
            }
            assertThat(expected).isNotEmpty();
        }
    }

    private static void bind(ShardedQuery<?> query, String name, Object value) {
        if (Character.isDigit(name.charAt(0))) {
            query.setParameter(Integer.parseInt(name), value);
        }
        else {
            query.setParameter(name, value);
        }
    }
}
