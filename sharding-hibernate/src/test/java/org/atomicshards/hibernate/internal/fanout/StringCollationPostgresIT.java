package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.testing.DatabaseKind;

/**
 * Fan-out over PostgreSQL shard databases created with an ICU collation ({@code locale_provider icu}, locale
 * {@code und}, the root locale; this machine has no libc locale but C).
 */
class StringCollationPostgresIT extends StringCollationContract {

    private static final StringCollationScenarios SCENARIOS = new StringCollationScenarios(DatabaseKind.POSTGRESQL,
            "template template0 encoding 'UTF8' locale_provider icu icu_locale 'und' locale 'C'", "icu:und");

    @Override
    StringCollationScenarios scenarios() {
        return SCENARIOS;
    }

    /** PostgreSQL's database collations are deterministic: only identical strings are equal, so groups merge. */
    @Override
    void checkGroupByString(FanOutQueries fanOut) {
        List<Object> rows = fanOut.createQuery("select p.category, count(p)"
                + " from Purchase p where p.category is not null group by p.category", Object.class)
                .getResultList();
        assertThat(rows).hasSize(TestDataSet.CATEGORIES.length);
        assertThat(rows.stream().mapToLong(row -> ((Number) ((Object[]) row)[1]).longValue()).sum())
                .isEqualTo(SCENARIOS.nonNullCategories());
    }
}
