package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.atomicshards.testing.DatabaseKind;

/**
 * Fan-out over MariaDB shard databases with its case-insensitive default collation {@code utf8mb4_general_ci}.
 */
class StringCollationMariaDbIT extends StringCollationContract {

    private static final StringCollationScenarios SCENARIOS = new StringCollationScenarios(DatabaseKind.MARIADB,
            "character set utf8mb4 collate utf8mb4_general_ci", "utf8mb4_general_ci");

    @Override
    StringCollationScenarios scenarios() {
        return SCENARIOS;
    }

    /** Case-insensitive equality groups strings of different characters, which the merge cannot reproduce. */
    @Override
    void checkGroupByString(FanOutQueries fanOut) {
        assertThatThrownBy(() -> fanOut.createQuery("select p.category, count(p)"
                + " from Purchase p group by p.category", Object.class).getResultList())
                .isInstanceOf(UnsupportedStringCollationException.class)
                .hasMessageContaining("GROUP BY")
                .hasMessageContaining("category")
                .hasMessageContaining("utf8mb4_general_ci");
    }
}
