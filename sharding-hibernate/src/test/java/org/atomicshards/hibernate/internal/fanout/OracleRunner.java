package org.atomicshards.hibernate.internal.fanout;

import java.util.List;
import java.util.Map;

import jakarta.persistence.criteria.CriteriaBuilder;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.ShardedQuery;
import org.hibernate.query.Query;

/**
 * Runs generated queries on a layout's shards (fan-out) and on the oracle database (all rows in one database) and
 * compares the results: in order where the ORDER BY is total, as multisets otherwise; with paging over a non-total
 * order only the row count is defined, so only it is compared.
 */
final class OracleRunner {

    /** The outcome of a run: how many cases ran, and how many compared ordered, as multisets, by count. */
    record Outcome(int cases, int ordered, int multisets, int countsOnly) {
    }

    private final ShardFixture fixture;

    OracleRunner(ShardFixture fixture) {
        this.fixture = fixture;
    }

    Outcome run(ShardFixture.Layout layout, long seed, int cases) {
        return run(layout.name(), layout.queries(), fixture.sessionFactory.getCriteriaBuilder(), seed, cases);
    }

    /**
     * Runs {@code cases} generated queries through {@code queries}, whose factory's criteria builder is
     * {@code fanOutBuilder}; the oracle gets the same queries built with its own factory's builder (a criteria tree
     * belongs to one session factory), from the same seed.
     */
    Outcome run(String layoutName, FanOutQueries queries, CriteriaBuilder fanOutBuilder, long seed, int cases) {
        QueryGenerator generator = new QueryGenerator(fanOutBuilder, seed, fixture.data.keySpace);
        QueryGenerator oracleGenerator = new QueryGenerator(fixture.sessionFactory.getCriteriaBuilder(), seed,
                fixture.data.keySpace);
        int ordered = 0;
        int multisets = 0;
        int countsOnly = 0;
        for (int i = 0; i < cases; i++) {
            QueryGenerator.Case generated = generator.next();
            QueryGenerator.Case oracleCase = oracleGenerator.next();
            List<Object> expected;
            List<Object> actual;
            try {
                expected = Rows.normalize(oracle(oracleCase));
                actual = Rows.normalize(fanOut(queries, generated));
            }
            catch (RuntimeException e) {
                throw new AssertionError(failure(layoutName, seed, i, generated, "threw " + e), e);
            }
            boolean paged = generated.maxResults() != null;
            if (generated.totalOrder()) {
                ordered++;
                if (!expected.equals(actual)) {
                    throw new AssertionError(failure(layoutName, seed, i, generated,
                            "\n expected (ordered) " + expected + "\n but was            " + actual));
                }
            }
            else if (paged) {
                countsOnly++;
                if (expected.size() != actual.size()) {
                    throw new AssertionError(failure(layoutName, seed, i, generated,
                            "expected " + expected.size() + " rows but was " + actual.size()));
                }
            }
            else {
                multisets++;
                if (!Rows.sorted(expected).equals(Rows.sorted(actual))) {
                    throw new AssertionError(failure(layoutName, seed, i, generated,
                            "\n expected (any order) " + Rows.sorted(expected) + "\n but was " + Rows.sorted(actual)));
                }
            }
        }
        return new Outcome(cases, ordered, multisets, countsOnly);
    }

    private static String failure(String layout, long seed, int index, QueryGenerator.Case generated,
                                  String what) {
        return "Oracle mismatch on layout " + layout + " (seed " + seed + ", case " + index + "): "
                + generated.describe() + " -> " + what;
    }

    private List<?> oracle(QueryGenerator.Case generated) {
        return fixture.onOracle(session -> {
            Query<?> query = session.createQuery(generated.query());
            for (Map.Entry<String, Object> parameter : generated.parameters().entrySet()) {
                query.setParameter(parameter.getKey(), parameter.getValue());
            }
            if (generated.firstResult() != null) {
                query.setFirstResult(generated.firstResult());
                query.setMaxResults(generated.maxResults());
            }
            return query.getResultList();
        });
    }

    private static List<?> fanOut(FanOutQueries queries, QueryGenerator.Case generated) {
        ShardedQuery<?> query = queries.createQuery(generated.query());
        for (Map.Entry<String, Object> parameter : generated.parameters().entrySet()) {
            query.setParameter(parameter.getKey(), parameter.getValue());
        }
        if (generated.firstResult() != null) {
            query.setFirstResult(generated.firstResult());
            query.setMaxResults(generated.maxResults());
        }
        return query.getResultList();
    }
}
