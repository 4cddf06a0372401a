package org.atomicshards.benchmarks.move;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The move probe end to end on PostgreSQL (databases created and dropped on the server {@code PostgresShards}
 * names), small: every figure measured and plausible, and the probe's own check that nothing was lost passed.
 * Runs with {@code -Preal-databases}.
 */
class MoveProbeIT {

    @Test
    void measuresEveryFigureOfASmallMoveThereAndBackUnderLoad() throws InterruptedException {
        Map<MoveFigure, Samples> figures = MoveProbe.run(400, 2, 2, 2, 1, 1, 1_000);

        for (MoveFigure figure : MoveFigure.values()) {
            assertThat(figures.get(figure).isEmpty()).as("%s measured", figure).isFalse();
            assertThat(figures.get(figure).mean()).as("%s", figure).isPositive();
        }
        assertThat(figures.get(MoveFigure.IDLE_UNITS_PER_SECOND).size()).isEqualTo(2);
        // each unit has its root and two orders: at least three rows move per unit
        assertThat(figures.get(MoveFigure.IDLE_ROWS_PER_SECOND).mean())
                .isGreaterThanOrEqualTo(3 * figures.get(MoveFigure.IDLE_UNITS_PER_SECOND).mean() * 0.99);
        // the writers are paced: 1,000 units of work per second in all, whatever the machine could do
        assertThat(figures.get(MoveFigure.APPLICATION_BEFORE).mean()).isLessThanOrEqualTo(1_100);
        assertThat(figures.get(MoveFigure.FROZEN_P99).mean())
                .isGreaterThanOrEqualTo(figures.get(MoveFigure.FROZEN_P50).mean());
        assertThat(MoveProbe.result(MoveFigure.FROZEN_P50, figures.get(MoveFigure.FROZEN_P50)))
                .startsWith("RESULT FROZEN_P50=").endsWith(" NaN");
    }
}
