package org.atomicshards.benchmarks.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.junit.jupiter.api.Nested;
import org.atomicshards.hibernate.ShardAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The read sides answer the benchmark queries correctly, and the checks catch a wrong merge. */
class OrderReadsTest {

    @Nested
    class ShardingSphereAcrossShards {

        @Test
        void mergesTheFirstOrdersAndTheFullStreamInPlacedAtOrder() {
            OrderDataSet data = new OrderDataSet(3, 500);
            try (OrderReads reads = new ShardingSphereOrderReads(data, Duration.ZERO)) {
                data.checkFirstPlaced(reads.firstPlaced(20), 20);
                List<Long> rowsSeen = new ArrayList<>();
                StreamDigest digest = reads.streamAllByPlacedAt(rowsSeen::add);
                data.checkStream(digest);
                assertThat(rowsSeen).hasSize(1500).startsWith(1L, 2L).endsWith(1500L);
            }
        }
    }

    @Nested
    class AtomicShardsAcrossShards {

        @ParameterizedTest(name = "{0} access")
        @EnumSource(ShardAccess.class)
        void mergesTheFirstOrdersAndTheFullStreamInPlacedAtOrder(ShardAccess access) {
            OrderDataSet data = new OrderDataSet(3, 500);
            try (OrderReads reads = new AtomicShardsOrderReads(data, Duration.ZERO, access)) {
                data.checkFirstPlaced(reads.firstPlaced(20), 20);
                List<Long> rowsSeen = new ArrayList<>();
                StreamDigest digest = reads.streamAllByPlacedAt(rowsSeen::add);
                data.checkStream(digest);
                assertThat(rowsSeen).hasSize(1500).startsWith(1L, 2L).endsWith(1500L);
            }
        }
    }

    @Nested
    class SingleDatabase {

        @Test
        void answersTheSameQueries() {
            OrderDataSet data = new OrderDataSet(1, 300);
            try (OrderReads reads = new SingleDatabaseOrderReads(data, Duration.ZERO)) {
                data.checkFirstPlaced(reads.firstPlaced(20), 20);
                data.checkStream(reads.streamAllByPlacedAt(rows -> { }));
            }
        }

        @Test
        void holdsOnlyOneShardsData() {
            assertThatThrownBy(() -> new SingleDatabaseOrderReads(new OrderDataSet(2, 10), Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("one-shard data set");
        }
    }

    @Nested
    class Checks {

        private final OrderDataSet data = new OrderDataSet(2, 10);

        @Test
        void rejectAnUnorderedOrIncompleteFirstPage() {
            List<PurchaseOrder> wrong = List.of(new PurchaseOrder(1, 1, 1, 1), new PurchaseOrder(0, 1, 1, 0));
            assertThatThrownBy(() -> data.checkFirstPlaced(wrong, 2))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("expected placed_at [0, 1] but got [1, 0]");
        }

        @Test
        void rejectAStreamMissingARow() {
            assertThatThrownBy(() -> data.checkStream(new StreamDigest(19, 190 - 7, true)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Wrong streamed merge");
        }

        @Test
        void acceptTheExactAnswer() {
            data.checkStream(new StreamDigest(20, 190, true));
            data.checkFirstPlaced(List.of(new PurchaseOrder(0, 1, 1, 0), new PurchaseOrder(1, 1, 1, 1)), 2);
        }
    }
}
