package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.atomicshards.hibernate.internal.fanout.aggregate.BitXor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An aggregate kind the library does not register ({@link BitXor}, a test's) is planned and merged like the standard
 * ones once an engine registers it: random queries calling it, each compared with one database holding every row.
 */
class AddedAggregateTest {

    private static final String XOR = BitXor.FUNCTION;
    private static final List<String> ARGUMENTS = List.of("p.quantity", "p.amount", "p.id",
            "p.quantity * 3 + p.amount", "case when p.amount > 40 then p.amount end");
    private static final List<String> GROUPINGS = List.of("p.category", "p.channel", "p.priority", "p.quantity");

    private static ShardFixture fixture;
    private static ShardFixture.Layout layout;
    private static FanOutEngine engine;

    @BeforeAll
    static void registerTheKind() {
        fixture = ShardFixture.h2();
        layout = fixture.layout(TestRouter.Policy.HASH, 3);
        engine = new FanOutEngine(fixture.sessionFactory, layout.router(), FanOutSettings.builder().parallelism(4)
                .build(), List.of(new BitXor()));
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @Test
    void anEngineWithoutTheKindRefusesItBeforeAskingAShard() {
        assertThatThrownBy(() -> layout.queries().createQuery("select " + XOR + "(p.quantity), count(*) from Purchase p",
                Object[].class).getResultList())
                .isInstanceOf(UnsupportedFanOutQueryException.class)
                .hasMessageContaining(XOR + "()");
    }

    @Test
    void randomQueriesMatchOneDatabase() {
        Random random = new Random(20_261_129L);
        int nonEmpty = 0;
        for (int i = 0; i < 120; i++) {
            String hql = query(random);
            List<Object[]> merged = engine.<Object[]>createQuery(hql, Object[].class).getResultList();
            List<Object[]> oracle = fixture.onOracle(session -> session.createQuery(hql, Object[].class)
                    .getResultList());
            assertThat(Rows.normalize(merged)).as(hql).isEqualTo(Rows.normalize(oracle));
            nonEmpty += oracle.isEmpty() ? 0 : 1;
        }
        assertThat(nonEmpty).as("queries with rows").isGreaterThan(100);
    }

    /** A select of one or two calls of the aggregate, with or without DISTINCT, FILTER, WHERE, GROUP BY, HAVING. */
    private static String query(Random random) {
        String group = random.nextInt(3) == 0 ? null : GROUPINGS.get(random.nextInt(GROUPINGS.size()));
        List<String> items = new ArrayList<>();
        if (group != null) {
            items.add(group);
        }
        int calls = 1 + random.nextInt(2);
        for (int c = 0; c < calls; c++) {
            items.add(call(random));
        }
        items.add("count(*)");
        StringBuilder hql = new StringBuilder("select ").append(String.join(", ", items)).append(" from Purchase p");
        if (random.nextBoolean()) {
            hql.append(" where p.quantity < ").append(2 + random.nextInt(12));
        }
        if (group != null) {
            hql.append(" group by ").append(group);
            if (random.nextInt(3) == 0) {
                hql.append(" having ").append(XOR).append("(p.quantity) > ").append(random.nextInt(8));
            }
            hql.append(random.nextBoolean() ? " order by " + group + " nulls first"
                    : " order by " + items.get(1) + " nulls last, " + group + " nulls first");
        }
        return hql.toString();
    }

    private static String call(Random random) {
        String argument = ARGUMENTS.get(random.nextInt(ARGUMENTS.size()));
        boolean distinct = random.nextInt(3) == 0;
        String call = XOR + "(" + (distinct ? "distinct " : "") + argument + ")";
        if (!distinct && random.nextInt(3) == 0) {
            call += " filter (where p.amount < " + (10 + random.nextInt(80)) + ")";
        }
        return call;
    }
}
