package org.atomicshards.hibernate.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.atomicshards.hibernate.ShardingPlan.Dialect;
import org.junit.jupiter.api.Test;

/**
 * The plan's SQL text: identifiers quoted by each dialect with their quote characters doubled (a hostile table name
 * stays one identifier), the batch size checked, a database without a dialect refused naming what to do.
 */
class PlanSqlTest {

    private static final PlanSql.Fill HOSTILE = new PlanSql.Fill("line\"; drop table x; --", "id", "cust`id",
            "order_id", "orders", "id", "customer_id");

    @Test
    void identifiersAreQuotedWithTheirQuotesDoubled() {
        assertThat(new PlanSql(Dialect.POSTGRESQL, 10).quote("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(new PlanSql(Dialect.MARIADB, 10).quote("a`b")).isEqualTo("`a``b`");
        assertThat(new PlanSql(Dialect.H2, 10).quote("ORDER_LINE")).isEqualTo("\"ORDER_LINE\"");

        assertThat(new PlanSql(Dialect.POSTGRESQL, 10).fill(HOSTILE).get(0))
                .contains("\"line\"\"; drop table x; --\" t").doesNotContain("\"line\"; drop");
        List<String> mariadb = new PlanSql(Dialect.MARIADB, 10).fill(HOSTILE);
        assertThat(mariadb).hasSize(4);
        assertThat(mariadb.get(1)).contains("`cust``id`", "< lo + 10", "COMMIT");
    }

    @Test
    void theFillCommitsRangesOfTheBatchSize() {
        String block = new PlanSql(Dialect.POSTGRESQL, 500).fill(HOSTILE).get(0);
        assertThat(block).startsWith("DO $atomicshards$").contains("< lo + 500", "COMMIT;", "lo := lo + 500",
                "IS NULL");
        assertThat(new PlanSql(Dialect.POSTGRESQL, 1).fillCommitsInBatches()).isTrue();
        assertThat(new PlanSql(Dialect.H2, 1).fillCommitsInBatches()).isFalse();
    }

    @Test
    void refusesABatchBelowOneAndAnUnknownDatabase() {
        assertThatThrownBy(() -> new PlanSql(Dialect.H2, 0)).hasMessageContaining("batch size must be at least 1");
        assertThatThrownBy(() -> PlanSql.dialectOf("Oracle")).hasMessageContaining("Oracle")
                .hasMessageContaining("shardingGaps()");
        assertThat(PlanSql.dialectOf("MariaDB")).isEqualTo(Dialect.MARIADB);
        assertThat(PlanSql.dialectOf("PostgreSQL")).isEqualTo(Dialect.POSTGRESQL);
    }
}
