package org.atomicshards.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class SteadyStateTest {

    @Test
    void aThroughputStillClimbingIsNotSteady() {
        // the unit of work's Atomic Shards side on a slow 2-vCPU machine after 20 s of warm-up (2026-11-28)
        assertThat(SteadyState.reached(List.of(10_800.0, 15_145.0, 20_572.0, 16_534.0, 15_678.0), true)).isFalse();
    }

    @Test
    void aNoisyButWarmThroughputIsSteady() {
        // plain Hibernate in the same run
        assertThat(SteadyState.reached(List.of(24_516.0, 22_120.0, 21_570.0, 25_668.0, 25_243.0), true)).isTrue();
    }

    @Test
    void aTimeThatIsStillFallingIsNotSteady() {
        assertThat(SteadyState.reached(List.of(9.0, 6.1, 6.0, 5.9), false)).isFalse();
        assertThat(SteadyState.reached(List.of(6.5, 6.1, 6.0, 5.9), false)).isTrue();
    }

    @Test
    void theBoundIsFifteenPercentOfTheLaterMedian() {
        assertThat(SteadyState.reached(List.of(85.0, 100.0, 100.0), true)).isTrue();
        assertThat(SteadyState.reached(List.of(84.9, 100.0, 100.0), true)).isFalse();
        assertThat(SteadyState.reached(List.of(115.0, 100.0, 100.0), false)).isTrue();
        assertThat(SteadyState.reached(List.of(115.1, 100.0, 100.0), false)).isFalse();
    }

    @Test
    void aFirstIterationBetterThanTheRestIsNotWarmingUp() {
        assertThat(SteadyState.reached(List.of(30_000.0, 20_000.0, 20_000.0), true)).isTrue();
    }

    @Test
    void tooFewIterationsToTellCountAsSteady() {
        assertThat(SteadyState.reached(List.of(1.0, 100.0), true)).isTrue();
        assertThat(SteadyState.reached(List.of(), true)).isTrue();
    }
}
