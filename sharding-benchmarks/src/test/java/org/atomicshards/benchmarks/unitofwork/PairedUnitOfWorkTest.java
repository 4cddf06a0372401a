package org.atomicshards.benchmarks.unitofwork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The pairing of the two sides' seconds: only seconds both measured, warm-up and the last second left out. */
class PairedUnitOfWorkTest {

    @Test
    void comparesOnlyTheSecondsBothSidesMeasuredAfterTheWarmUp() {
        Map<Long, Long> a = new HashMap<>();
        Map<Long, Long> b = new HashMap<>();
        for (long second = 100; second < 112; second++) {
            // the first third (4 of the 12 shared seconds) is warm-up: ratios there would pull the median down
            a.put(second, second < 104 ? 10L : 90L);
            b.put(second, 100L);
        }
        a.put(111L, 1L); // the last second is partial
        a.put(99L, 500L); // a second only side A measured (it booted first)
        b.put(112L, 500L); // and one only side B measured

        assertThat(PairedUnitOfWork.medianRatio(a, b)).isEqualTo(0.9);
    }

    @Test
    void refusesRunsThatShareNoMeasuredSecond() {
        assertThatThrownBy(() -> PairedUnitOfWork.medianRatio(Map.of(1L, 5L), Map.of(2L, 5L)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("run longer");
    }

    @Test
    void namesTheSidesItKnowsWhenGivenAnotherOne() {
        assertThat(PairedUnitOfWork.Side.named("plain")).isEqualTo(PairedUnitOfWork.Side.PLAIN);
        assertThatThrownBy(() -> PairedUnitOfWork.Side.named("hibernate"))
                .hasMessageContaining("atomic-shards").hasMessageContaining("plain");
    }
}
