package org.atomicshards.samples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The main job, smaller: every check inside it throws on a mismatch; here it must complete with a sane skew. */
class MainTest {

    @Test
    void theJobWritesReadsBackGuardsAndReportsTheDistribution() {
        double skew = Main.run(400);
        assertThat(skew).isBetween(1.0, 1.5);
    }
}
