package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jakarta.persistence.criteria.CriteriaBuilder;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.ShardedQuery;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.query.Query;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * Runs generated queries on a layout's shards (fan-out) and on the oracle database (all rows in one database of the
 * same kind) and compares the results, values and Java types: in order where the ORDER BY is total, as multisets
 * otherwise; with paging over a non-total order only the row count is defined, so only it is compared.
 *
 * <p>The queries run one after the other through one fan-out entry point (one factory, its caches shared), as an
 * application runs them. Each case runs as a Criteria query and, optionally, once more as the JPQL text of the same
 * query (through the HQL interpretation cache shared by equal strings); after the last case the JPQL cases run once
 * more in reverse order, so that each runs after every other query of the run (a query must not change the answer
 * of a later one through a shared cache). Every mismatch is collected; the run fails at the end listing them.
 */
final class OracleRunner {

    /** One database holding every row, whose answer is the expected one. */
    interface OracleDatabase {

        /** The factory whose sessions query the oracle database (and whose criteria builder builds its queries). */
        SessionFactory sessionFactory();

        /** Runs work in a session on the oracle database. */
        <T> T onOracle(Function<Session, T> work);

        /** The shard keys of the data set are 0 to keySpace - 1. */
        long keySpace();
    }

    /** How string values compare. */
    enum Strings {
        /** Exactly. */
        EXACT,
        /**
         * Under a PAD SPACE collation: in results that return one value for several rows (GROUP BY keys, DISTINCT
         * values, MIN and MAX), which of the strings equal but for trailing spaces the database returns is not
         * defined, so there they compare without trailing spaces; elsewhere exactly.
         */
        PAD_SPACE
    }

    /** The outcome of a run: how many cases ran, how they compared, and the JPQL runs. */
    record Outcome(int cases, int ordered, int multisets, int countsOnly, int jpql, int jpqlNotRenderable) {
    }

    /** A JPQL case and the oracle's answer, kept for the replay. */
    private record JpqlCase(int index, String hql, QueryGenerator.Case generated, List<Object> expected) {
    }

    private static final Set<QueryGenerator.Shape> ONE_VALUE_FOR_MANY_ROWS = EnumSet.of(QueryGenerator.Shape.DISTINCT,
            QueryGenerator.Shape.GROUP_BY, QueryGenerator.Shape.GLOBAL_AGGREGATE, QueryGenerator.Shape.CONSTRUCTOR);
    private static final int MISMATCHES_SHOWN = 25;

    private final OracleDatabase oracle;
    private final Strings strings;
    private final boolean jpql;

    OracleRunner(OracleDatabase oracle) {
        this(oracle, Strings.EXACT, false);
    }

    /** @param jpql whether each case also runs as the JPQL text of its query */
    OracleRunner(OracleDatabase oracle, Strings strings, boolean jpql) {
        this.oracle = oracle;
        this.strings = strings;
        this.jpql = jpql;
    }


    Outcome run(ShardFixture.Layout layout, long seed, int cases) {
        return run(layout.name(), layout.queries(), oracle.sessionFactory().getCriteriaBuilder(), seed, cases);
    }

    /**
     * Runs {@code cases} generated queries through {@code queries}, whose factory's criteria builder is
     * {@code fanOutBuilder}; the oracle gets the same queries built with its own factory's builder (a criteria tree
     * belongs to one session factory), from the same seed.
     */
    Outcome run(String layoutName, FanOutQueries queries, CriteriaBuilder fanOutBuilder, long seed, int cases) {
        QueryGenerator generator = new QueryGenerator(fanOutBuilder, seed, oracle.keySpace());
        QueryGenerator oracleGenerator = new QueryGenerator(oracle.sessionFactory().getCriteriaBuilder(), seed,
                oracle.keySpace(), answersBitAndWithoutValuesUnreadably(oracle.sessionFactory()));
        int[] counts = new int[3];
        int jpqlRuns = 0;
        int notRenderable = 0;
        List<String> mismatches = new ArrayList<>();
        List<JpqlCase> jpqlCases = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            QueryGenerator.Case generated = generator.next();
            QueryGenerator.Case oracleCase = oracleGenerator.next();
            String criteriaMismatch = compare(generated, () -> oracle(oracleCase.query(), generated),
                    () -> fanOut(queries.createQuery(generated.query()), generated), counts);
            if (criteriaMismatch != null) {
                mismatches.add(failure(layoutName, seed, i, "Criteria", generated, criteriaMismatch));
            }
            if (jpql) {
                String hql = ((SqmSelectStatement<?>) generated.query()).toHqlString();
                List<Object> expected;
                try {
                    expected = Rows.normalize(oracle(hql, generated));
                }
                catch (RuntimeException e) {
                    // Hibernate renders some criteria trees as text it cannot parse back; not a fan-out case.
                    notRenderable++;
                    continue;
                }
                jpqlRuns++;
                jpqlCases.add(new JpqlCase(i, hql, generated, expected));
                String jpqlMismatch = compare(generated, () -> expected,
                        () -> fanOut(queries.createQuery(hql, Object.class), generated), new int[3]);
                if (jpqlMismatch != null) {
                    mismatches.add(failure(layoutName, seed, i, "JPQL", generated, jpqlMismatch));
                }
            }
        }
        for (int i = jpqlCases.size() - 1; i >= 0; i--) {
            JpqlCase replay = jpqlCases.get(i);
            String mismatch = compare(replay.generated(), replay::expected,
                    () -> fanOut(queries.createQuery(replay.hql(), Object.class), replay.generated()), new int[3]);
            if (mismatch != null) {
                mismatches.add(failure(layoutName, seed, replay.index(), "JPQL replayed after all others",
                        replay.generated(), mismatch));
            }
        }
        if (!mismatches.isEmpty()) {
            throw new AssertionError(mismatches.size() + " oracle mismatches on layout " + layoutName + " (seed "
                    + seed + ", " + cases + " cases):\n" + String.join("\n",
                    mismatches.subList(0, Math.min(MISMATCHES_SHOWN, mismatches.size())))
                    + (mismatches.size() > MISMATCHES_SHOWN ? "\n..." : ""));
        }
        return new Outcome(cases, counts[0], counts[1], counts[2], jpqlRuns, notRenderable);
    }

    /** MariaDB and MySQL answer bit_and over no value with every bit of a BIGINT UNSIGNED (see QueryGenerator). */
    private static boolean answersBitAndWithoutValuesUnreadably(SessionFactory sessionFactory) {
        return sessionFactory.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect()
                instanceof MySQLDialect;
    }

    /**
     * Compares one case's results; counts it as ordered, multiset or count-only in {@code counts}.
     *
     * @return null when equal, otherwise what differed
     */
    private String compare(QueryGenerator.Case generated, java.util.function.Supplier<List<?>> expectedRows,
                           java.util.function.Supplier<List<?>> actualRows, int[] counts) {
        List<Object> expected;
        List<Object> actual;
        try {
            expected = Rows.normalize(expectedRows.get());
            actual = Rows.normalize(actualRows.get());
        }
        catch (RuntimeException e) {
            return "threw " + e;
        }
        if (strings == Strings.PAD_SPACE && ONE_VALUE_FOR_MANY_ROWS.contains(generated.shape())) {
            expected = Rows.withoutTrailingSpaces(expected);
            actual = Rows.withoutTrailingSpaces(actual);
        }
        boolean paged = generated.maxResults() != null;
        if (generated.totalOrder()) {
            counts[0]++;
            return expected.equals(actual) ? null
                    : "\n expected (ordered) " + expected + "\n but was            " + actual;
        }
        if (paged) {
            counts[2]++;
            return expected.size() == actual.size() ? null
                    : "expected " + expected.size() + " rows but was " + actual.size();
        }
        counts[1]++;
        return Rows.sorted(expected).equals(Rows.sorted(actual)) ? null
                : "\n expected (any order) " + Rows.sorted(expected) + "\n but was " + Rows.sorted(actual);
    }

    private static String failure(String layout, long seed, int index, String path, QueryGenerator.Case generated,
                                  String what) {
        return "Oracle mismatch on layout " + layout + " (seed " + seed + ", case " + index + ", " + path + "): "
                + generated.describe() + " -> " + what;
    }

    /**
     * The oracle's answer to a criteria query, translated afresh: Hibernate's query plan cache keys a criteria
     * statement by its structure, which leaves a sort's ignore-case flag out (Hibernate 7.4), so a query would
     * otherwise run the SQL of an earlier one that differs from it only there (and the oracle answer wrongly).
     */
    private List<?> oracle(jakarta.persistence.criteria.CriteriaQuery<?> criteria, QueryGenerator.Case generated) {
        return oracle.onOracle(session -> {
            Query<?> query = session.createQuery(criteria);
            query.setQueryPlanCacheable(false);
            return page(query, generated).getResultList();
        });
    }

    private List<?> oracle(String hql, QueryGenerator.Case generated) {
        return oracle.onOracle(session -> page(session.createQuery(hql, Object.class), generated).getResultList());
    }

    private static Query<?> page(Query<?> query, QueryGenerator.Case generated) {
        for (Map.Entry<String, Object> parameter : generated.parameters().entrySet()) {
            query.setParameter(parameter.getKey(), parameter.getValue());
        }
        if (generated.firstResult() != null) {
            query.setFirstResult(generated.firstResult());
            query.setMaxResults(generated.maxResults());
        }
        return query;
    }

    private static List<?> fanOut(ShardedQuery<?> query, QueryGenerator.Case generated) {
        for (Map.Entry<String, Object> parameter : generated.parameters().entrySet()) {
            query.setParameter(parameter.getKey(), parameter.getValue());
        }
        if (generated.firstResult() != null) {
            query.setFirstResult(generated.firstResult());
            query.setMaxResults(generated.maxResults());
        }
        if (generated.fetchSize() != null) {
            query.setFetchSize(generated.fetchSize());
        }
        return query.getResultList();
    }
}
