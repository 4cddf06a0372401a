package org.atomicshards.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.atomicshards.benchmarks.move.MoveFigure;
import org.atomicshards.benchmarks.report.Measurement;
import org.atomicshards.benchmarks.report.Unit;
import org.junit.jupiter.api.Test;

/** The pg-move group runs only when named, and its figures are read back from the probe's output. */
class MoveProbesTest {

    @Test
    void runsOnlyWhenNamedNeverUnderTheDefault() {
        assertThat(MoveProbes.selectedBy(Pattern.compile(SuiteGroup.ALL))).isFalse();
        assertThat(MoveProbes.selectedBy(Pattern.compile("pg-move"))).isTrue();
        assertThat(MoveProbes.selectedBy(Pattern.compile("pg-.*"))).isTrue();
        assertThat(MoveProbes.selectedBy(Pattern.compile("pg-fan-out"))).isFalse();
    }

    @Test
    void readsEveryFigureWithItsSpreadAndUnit() {
        List<String> output = new ArrayList<>(List.of("[move] something logged", "RESULT NOT_A_FIGURE=1 2"));
        for (MoveFigure figure : MoveFigure.values()) {
            output.add("RESULT " + figure.name() + "=" + (figure.ordinal() + 1.5) + " " + (figure.unit()
                    == Unit.MILLIS ? "NaN" : "0.25"));
        }
        List<String> failures = new ArrayList<>();
        List<Measurement> measurements = MoveProbes.parse(output, failures, Path.of("move-probe.log"));
        assertThat(failures).isEmpty();
        assertThat(measurements).hasSize(MoveFigure.values().length);
        Measurement units = measurements.get(MoveFigure.IDLE_UNITS_PER_SECOND.ordinal());
        assertThat(units.key()).isEqualTo("OnlineMove.idleUnitsPerSecond");
        assertThat(units.value()).isEqualTo(1.5);
        assertThat(units.error()).isEqualTo(0.25);
        assertThat(units.unit()).isEqualTo(Unit.UNITS_PER_SECOND);
        Measurement pause = measurements.get(MoveFigure.FROZEN_P99.ordinal());
        assertThat(pause.error()).isNaN();
        assertThat(pause.formatted()).endsWith(" ms");
    }

    @Test
    void aFigureMissingFromTheOutputIsNamedWithTheLog() {
        List<String> failures = new ArrayList<>();
        List<Measurement> measurements = MoveProbes.parse(List.of("RESULT IDLE_UNITS_PER_SECOND=10.0 NaN"),
                failures, Path.of("target", "move-probe.log"));
        assertThat(measurements).extracting(Measurement::key).containsExactly(MoveFigure.IDLE_UNITS_PER_SECOND.key());
        assertThat(failures).hasSize(MoveFigure.values().length - 1)
                .allMatch(line -> line.contains("move-probe.log"))
                .anyMatch(line -> line.startsWith(MoveFigure.FROZEN_P50.key() + ":"));
    }
}
