package org.atomicshards.benchmarks.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The scale benchmark's set-up checks its fan-outs, and its JDBC baseline counts the same rows over every database. */
class ScaleFanOutBenchmarkTest {

    @Test
    void theJdbcBaselineCountsWhatTheFanOutCounts() throws Exception {
        ScaleFanOutBenchmark benchmark = new ScaleFanOutBenchmark();
        benchmark.shards = 4;
        benchmark.setUp();
        try {
            assertThat(benchmark.jdbcCountEach())
                    .isEqualTo(benchmark.countAll())
                    .isEqualTo(4 * ScaleFanOutBenchmark.ORDERS_PER_SHARD);
            assertThat(benchmark.firstTwenty()).hasSize(ScaleFanOutBenchmark.LIMIT);
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void aSetUpThatFailsBeforeBuildingAnythingFailsWithItsOwnErrorAlone() {
        ScaleFanOutBenchmark benchmark = new ScaleFanOutBenchmark();
        benchmark.shards = 0;

        assertThatThrownBy(benchmark::setUp).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one database")
                .satisfies(e -> assertThat(e.getSuppressed()).isEmpty());
    }
}
