package org.atomicshards.benchmarks.move;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class UnitOfWorkLogTest {

    @Test
    void countsCommitsByTheirEndAndLatenciesOfUnitsWhollyInsideAWindow() {
        UnitOfWorkLog first = new UnitOfWorkLog();
        for (int i = 0; i < 2000; i++) { // grows past its first arrays
            first.record(i, i * 1_000_000L, i * 1_000_000L + 500_000, i % 10 != 0);
        }
        UnitOfWorkLog second = new UnitOfWorkLog();
        second.record(1, 5_000_000, 7_000_000, true);
        List<UnitOfWorkLog> logs = List.of(first, second);

        // ends in [0, 10 ms): units 0..9 of the first (unit 0 did not commit) and the second's
        assertThat(UnitOfWorkLog.committedBetween(logs, 0, 10_000_000)).isEqualTo(10);
        assertThat(UnitOfWorkLog.failed(logs)).isEqualTo(200);
        Samples latencies = UnitOfWorkLog.latenciesBetween(logs, 5_000_000, 7_000_000);
        // started at or after 5 ms and ended before 7 ms: units 5 and 6 of the first (0.5 ms); not the second's
        assertThat(latencies.size()).isEqualTo(2);
        assertThat(latencies.mean()).isEqualTo(0.5);
    }
}
