package org.atomicshards.benchmarks.unitofwork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.assertj.core.data.Offset;

import org.junit.jupiter.api.Test;

/** The quantiles the alternating comparison reports, interpolated between the sorted pairs' ratios. */
class AlternatingUnitOfWorkTest {

    @Test
    void interpolatesBetweenTheSortedRatios() {
        List<Double> sorted = List.of(0.80, 0.90, 0.95, 1.00);
        assertThat(AlternatingUnitOfWork.quantile(sorted, 0.5)).isCloseTo(0.925, Offset.offset(1e-9));
        assertThat(AlternatingUnitOfWork.quantile(sorted, 0.25)).isCloseTo(0.875, Offset.offset(1e-9));
        assertThat(AlternatingUnitOfWork.quantile(sorted, 0.0)).isEqualTo(0.80);
        assertThat(AlternatingUnitOfWork.quantile(sorted, 1.0)).isEqualTo(1.00);
        assertThat(AlternatingUnitOfWork.quantile(List.of(0.7), 0.5)).isEqualTo(0.7);
    }

    @Test
    void refusesARunWithoutMeasuredPairs() {
        assertThatThrownBy(() -> AlternatingUnitOfWork.quantile(List.of(), 0.5))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("more pairs");
    }
}
