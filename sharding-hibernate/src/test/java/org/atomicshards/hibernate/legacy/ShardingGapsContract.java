package org.atomicshards.hibernate.legacy;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingGap;
import org.atomicshards.hibernate.ShardingGap.Kind;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ShardSchema.shardingGaps()} on the one-database application's database at each step of its migration: every
 * gap found where it is and only there (key column missing, NULL keys, nullable, no key-leading index, ids generated
 * by the database), until none is left.
 */
abstract class ShardingGapsContract {

    private final AdoptionContract support = new AdoptionContract() {
        @Override
        protected DatabaseKind kind() {
            return ShardingGapsContract.this.kind();
        }
    };

    protected abstract DatabaseKind kind();

    @AfterEach
    void closeAll() {
        support.closeAll();
    }

    static List<String> gaps(ShardedSessionFactory shards) {
        List<String> gaps = new ArrayList<>();
        for (ShardingGap gap : shards.schema().shardingGaps()) {
            assertThat(gap.shard().name()).isEqualTo("s0");
            gaps.add(gap.kind() + " " + gap.table() + "." + gap.column());
        }
        return gaps;
    }

    @Test
    void eachStepOfTheMigrationClosesItsGaps() throws SQLException {
        ShardDatabases dbs = support.databases(1);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(3);
        ShardedSessionFactory shards = support.boot(dbs, 1, Map.of());
        List<String> generatedIds = List.of(Kind.DATABASE_GENERATED_ID + " customer.id",
                Kind.DATABASE_GENERATED_ID + " order_line.id", Kind.DATABASE_GENERATED_ID + " purchase_order.id");

        List<String> before = new ArrayList<>(List.of(Kind.KEY_COLUMN_MISSING + " order_line.customer_id"));
        if (kind() == DatabaseKind.POSTGRESQL) {
            before.add(Kind.KEY_INDEX_MISSING + " purchase_order.customer_id"); // H2 and InnoDB index a foreign key
        }
        before.addAll(generatedIds);
        assertThat(gaps(shards)).containsExactlyInAnyOrderElementsOf(before);
        assertThat(shards.schema().shardingGaps()).allSatisfy(gap -> assertThat(gap.detail()).contains(gap.table()));

        legacy.addKeyColumn();
        List<String> added = new ArrayList<>(List.of(Kind.KEY_VALUES_MISSING + " order_line.customer_id",
                Kind.KEY_COLUMN_NULLABLE + " order_line.customer_id", Kind.KEY_INDEX_MISSING + " order_line.customer_id"));
        if (kind() == DatabaseKind.POSTGRESQL) {
            added.add(Kind.KEY_INDEX_MISSING + " purchase_order.customer_id");
        }
        added.addAll(generatedIds);
        assertThat(gaps(shards)).containsExactlyInAnyOrderElementsOf(added);

        legacy.fillKeyColumn();
        assertThat(gaps(shards)).containsExactlyInAnyOrderElementsOf(generatedIds);

        legacy.dropIdGeneration();
        assertThat(gaps(shards)).isEmpty();
        legacy.insertCustomer(legacy.maxId("customer") + 1); // the stored ids and explicit ones still work
    }
}
