package org.atomicshards.hibernate.internal.reshard.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.atomicshards.hibernate.CatalogUnavailableException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.internal.reshard.Ranges;
import org.junit.jupiter.api.Test;

/** Which stopped operations a failure names: those in the given state that move the virtual shard asked about. */
class StoppedOperationsTest {

    private static OperationStatus op(String id, String virtualShards, String state) {
        return new OperationStatus(id, "MOVE", ShardId.of("s1"), virtualShards, state, 0, null, Instant.EPOCH, null);
    }

    @Test
    void namesTheOperationsInTheStateThatMoveTheVirtualShard() {
        StoppedOperations stopped = new StoppedOperations(() -> List.of(op("a", "0-3,8", "SWITCHED"),
                op("b", "4-7", "SWITCHED"), op("c", "8", "PROMOTED")));
        assertThat(stopped.explain("SWITCHED", 8, "its writes wait")).contains("MOVE a of virtual shards 0-3,8",
                "to shard 's1'", "its writes wait until it is resumed", "ShardAdmin.resume()",
                "atomicshards.resharding.auto_resume at its default (after_switch)").doesNotContain("MOVE b", "MOVE c");
        assertThat(stopped.explain("SWITCHED", 2, "x")).contains("MOVE a").doesNotContain("MOVE b");
        assertThat(stopped.explain("SWITCHED", 9, "x")).as("no operation moves it").isNull();
        assertThat(stopped.explain("PROMOTED", -1, "x")).as("any virtual shard").contains("MOVE c")
                .doesNotContain("MOVE a");
    }

    @Test
    void virtualShardsThatAreNotRangesNameNothingRatherThanFail() {
        StoppedOperations stopped = new StoppedOperations(() -> List.of(op("a", "unit:42", "SWITCHED")));
        assertThat(stopped.explain("SWITCHED", 3, "x")).isNull();
        assertThat(stopped.explain("SWITCHED", -1, "x")).as("any virtual shard: not read").contains("MOVE a");
    }

    @Test
    void aCatalogThatCannotBeReadNamesNothing() {
        StoppedOperations stopped = new StoppedOperations(() -> {
            throw new CatalogUnavailableException("catalog down", null);
        });
        assertThat(stopped.explain("SWITCHED", 1, "x")).isNull();
    }

    @Test
    void rangesTellWhichVirtualShardsTheyName() {
        assertThat(Ranges.contains(Ranges.of(List.of(0, 1, 2, 3, 8, 10, 11)), 11)).isTrue();
        assertThat(Ranges.contains("0-3,8,10-11", 9)).isFalse();
        assertThat(Ranges.contains("5", 5)).isTrue();
        assertThat(Ranges.contains("", 0)).isFalse();
    }
}
