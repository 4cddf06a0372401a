package org.atomicshards.benchmarks.move;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SamplesTest {

    private static Samples of(double... values) {
        Samples samples = new Samples();
        for (double value : values) {
            samples.add(value);
        }
        return samples;
    }

    @Test
    void meanAndSampleStandardDeviation() {
        Samples samples = of(2, 4, 4, 4, 5, 5, 7, 9);
        assertThat(samples.mean()).isEqualTo(5.0);
        assertThat(samples.standardDeviation()).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
        assertThat(of(3).standardDeviation()).isNaN();
    }

    @Test
    void nearestRankPercentiles() {
        Samples hundred = new Samples();
        for (int i = 100; i >= 1; i--) {
            hundred.add(i);
        }
        assertThat(hundred.percentile(50)).isEqualTo(50.0);
        assertThat(hundred.percentile(99)).isEqualTo(99.0);
        assertThat(hundred.percentile(100)).isEqualTo(100.0);
        Samples few = of(30, 10, 20);
        assertThat(few.percentile(50)).isEqualTo(20.0);
        assertThat(few.percentile(99)).isEqualTo(30.0);
        assertThat(few.percentile(1)).isEqualTo(10.0);
    }

    @Test
    void growsBeyondItsFirstArrayAndAddsAnotherSet() {
        Samples samples = new Samples();
        for (int i = 0; i < 1000; i++) {
            samples.add(1);
        }
        samples.addAll(of(1002));
        assertThat(samples.size()).isEqualTo(1001);
        assertThat(samples.mean()).isEqualTo(2.0);
    }

    @Test
    void refusesWhatHasNoAnswer() {
        assertThatThrownBy(() -> new Samples().mean()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No samples");
        assertThatThrownBy(() -> of(1).percentile(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> of(1).add(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
