package org.atomicshards.benchmarks.move;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Units of work count as paused only on their own batch's virtual shards and only if they overlap its freeze. */
class FreezeWindowsTest {

    private static final long MS = 1_000_000;

    @Test
    void keepsTheUnitsOfWorkOnAFrozenBatchThatOverlapItsFreeze() {
        // batch 0 (virtual shards 1, 2) frozen 100..150 ms, batch 1 (virtual shard 3) frozen 400..500 ms
        List<BatchClock.SwitchedBatch> batches = List.of(new BatchClock.SwitchedBatch(150 * MS, Set.of(1, 2)),
                new BatchClock.SwitchedBatch(500 * MS, Set.of(3)));
        List<Duration> pauses = List.of(Duration.ofMillis(50), Duration.ofMillis(100));
        UnitOfWorkLog log = new UnitOfWorkLog();
        log.record(1, 90 * MS, 160 * MS, true);   // virtual shard 1, across batch 0's freeze: 70 ms
        log.record(2, 140 * MS, 142 * MS, true);  // virtual shard 2, inside it: 2 ms
        log.record(1, 40 * MS, 60 * MS, true);    // before the freeze
        log.record(3, 120 * MS, 130 * MS, true);  // during batch 0's freeze but on batch 1
        log.record(3, 300 * MS, 480 * MS, false); // batch 1, turned away after 180 ms: still a pause seen
        log.record(7, 410 * MS, 420 * MS, true);  // a virtual shard that did not move
        UnitOfWorkLog other = new UnitOfWorkLog();
        other.record(2, 150 * MS, 151 * MS, true); // starts as the freeze ends: not paused

        Samples latencies = FreezeWindows.frozenLatencies(batches, pauses, List.of(log, other),
                key -> (int) key);

        assertThat(latencies.size()).isEqualTo(3);
        assertThat(latencies.percentile(100)).isEqualTo(180.0);
        assertThat(latencies.percentile(1)).isEqualTo(2.0);
        assertThat(latencies.mean()).isEqualTo((70 + 2 + 180) / 3.0);
    }

    @Test
    void refusesPausesThatDoNotMatchTheBatches() {
        assertThatThrownBy(() -> FreezeWindows.frozenLatencies(
                List.of(new BatchClock.SwitchedBatch(1, Set.of(1))), List.of(), List.of(), key -> 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 write pauses").hasMessageContaining("1 batches");
    }
}
