package org.atomicshards.benchmarks.reads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.hibernate.ShardAccess;
import org.junit.jupiter.api.Test;

/**
 * The read sides of the PostgreSQL fan-out benchmark answer its queries correctly on PostgreSQL shards (created and
 * dropped on the server {@code PostgresShards} names). Runs with {@code -Preal-databases}.
 */
class PostgresOrderReadsIT {

    private static final OrderDataSet DATA = new OrderDataSet(3, 500);

    private static void checkBothQueries(OrderReads reads, OrderDataSet data) {
        data.checkFirstPlaced(reads.firstPlaced(20), 20);
        List<Long> rowsSeen = new ArrayList<>();
        data.checkStream(reads.streamAllByPlacedAt(rowsSeen::add));
        assertThat(rowsSeen).hasSize((int) data.totalOrders());
    }

    @Test
    void atomicShardsMergesTheShardsInPlacedAtOrder() {
        try (OrderReads reads = new AtomicShardsOrderReads(DATA,
                Backend.POSTGRESQL.create("it_as", DATA.shards(), false, true, 1), ShardAccess.PARALLEL, 2)) {
            checkBothQueries(reads, DATA);
        }
    }

    @Test
    void shardingSphereMergesTheShardsInPlacedAtOrder() {
        try (OrderReads reads = new ShardingSphereOrderReads(DATA,
                Backend.POSTGRESQL.create("it_ss", DATA.shards(), true, true, 2),
                Backend.POSTGRESQL.shardingSphereDialect())) {
            checkBothQueries(reads, DATA);
        }
    }

    @Test
    void oneDatabaseAnswersTheSameQueries() {
        OrderDataSet one = new OrderDataSet(1, 300);
        try (OrderReads reads = new SingleDatabaseOrderReads(one,
                Backend.POSTGRESQL.create("it_single", 1, false, true, 2))) {
            checkBothQueries(reads, one);
        }
    }
}
