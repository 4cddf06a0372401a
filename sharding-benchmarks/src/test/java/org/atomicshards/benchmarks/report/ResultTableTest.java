package org.atomicshards.benchmarks.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResultTableTest {

    private final Measurements measurements = new Measurements();

    @Nested
    class Rows {

        @Test
        void showAThroughputRatioAgainstItsTarget() {
            measurements.add(new Measurement("ours", 9_600, 120, Unit.OPS_PER_SECOND));
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND));

            String table = ResultTable.render(List.of(Comparison.against("unit of work", "ours", "plain Hibernate",
                    "plain", Target.ratioAtLeast(0.95))), measurements);

            assertThat(table.lines().toList()).hasSize(3);
            assertThat(table.lines().toList().get(2)).contains("| unit of work", "| 9,600 ± 120 ops/s",
                    "| plain Hibernate", "| 10,000 ops/s", "| 0.96x", "| ≥ 0.95x", "| yes");
        }

        @Test
        void markAMissedTarget() {
            measurements.add(new Measurement("ours", 9.0, Double.NaN, Unit.MILLIS_PER_OP));
            measurements.add(new Measurement("one", 5.0, Double.NaN, Unit.MILLIS_PER_OP));

            String table = ResultTable.render(List.of(Comparison.against("fan-out", "ours", "one shard", "one",
                    Target.ratioAtMost(1.5))), measurements);

            assertThat(table).contains("| 1.80x", "| ≤ 1.50x", "| **no**");
        }

        @Test
        void showMemoryGrowthAsADifference() {
            measurements.add(new Measurement("large", 3 * 1024, Double.NaN, Unit.BYTES));
            measurements.add(new Measurement("small", 2 * 1024, Double.NaN, Unit.BYTES));

            String table = ResultTable.render(List.of(Comparison.against("retained", "large", "small rows", "small",
                    Target.growthAtMost(1024 * 1024))), measurements);

            assertThat(table).contains("| 3.0 KiB", "| 2.0 KiB", "| +1.0 KiB", "| ≤ +1.0 MiB", "| yes");
        }

        @Test
        void showContextRowsWithoutATarget() {
            measurements.add(new Measurement("peer", 2_000, Double.NaN, Unit.OPS_PER_SECOND));
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND));

            String table = ResultTable.render(List.of(Comparison.context("peer", "peer", "plain", "plain")),
                    measurements);

            assertThat(table).contains("| 0.20x", "| —      | —   |");
        }

        @Test
        void showACountAsAWholeNumberWithoutAUnit() {
            measurements.add(new Measurement("threads", 1_257, Double.NaN, Unit.COUNT));
            measurements.add(new Measurement("few", 3, Double.NaN, Unit.COUNT));

            String table = ResultTable.render(List.of(Comparison.standalone("threads", "threads"),
                    Comparison.standalone("few", "few")), measurements);

            assertThat(table).contains("| 1,257 ", "| 3 ").doesNotContain("3.00", "1257.0");
        }
    }

    @Nested
    class WarmingUp {

        @Test
        void aRowWhoseSubjectWasStillWarmingUpGetsNoVerdictAndIsListed() {
            measurements.add(new Measurement("ours", 9_000, Double.NaN, Unit.OPS_PER_SECOND, false));
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND));
            List<Comparison> comparisons = List.of(
                    Comparison.against("unit of work", "ours", "plain", "plain", Target.ratioAtLeast(0.95)));

            String table = ResultTable.render(comparisons, measurements);

            assertThat(table).contains("| 0.90x", "| ≥ 0.95x", "| **warming up**").doesNotContain("**no**");
            assertThat(ResultTable.warmingUp(comparisons, measurements)).containsExactly("ours");
        }

        @Test
        void aWarmingBaselineWithholdsTheVerdictToo() {
            measurements.add(new Measurement("ours", 9_600, Double.NaN, Unit.OPS_PER_SECOND));
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND, false));
            List<Comparison> comparisons = List.of(
                    Comparison.against("unit of work", "ours", "plain", "plain", Target.ratioAtLeast(0.95)),
                    Comparison.standalone("plain alone", "plain"));

            String table = ResultTable.render(comparisons, measurements);

            assertThat(table).contains("| **warming up**").doesNotContain("| yes");
            assertThat(ResultTable.warmingUp(comparisons, measurements)).containsExactly("plain");
        }

        @Test
        void steadyRowsAreNotListed() {
            measurements.add(new Measurement("ours", 9_600, Double.NaN, Unit.OPS_PER_SECOND));
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND));

            assertThat(ResultTable.warmingUp(List.of(Comparison.against("unit of work", "ours", "plain", "plain",
                    Target.ratioAtLeast(0.95))), measurements)).isEmpty();
        }
    }

    @Nested
    class OnlyMeasuredRows {

        @Test
        void leaveOutAndReportComparisonsWithAMissingSide() {
            measurements.add(new Measurement("plain", 10_000, Double.NaN, Unit.OPS_PER_SECOND));
            List<Comparison> comparisons = List.of(
                    Comparison.against("unit of work", "ours", "plain", "plain", Target.ratioAtLeast(0.95)),
                    Comparison.standalone("plain alone", "plain"));

            String table = ResultTable.render(comparisons, measurements);

            assertThat(table).doesNotContain("unit of work").contains("plain alone");
            assertThat(ResultTable.unmeasured(comparisons, measurements)).containsExactly(comparisons.get(0));
        }

        @Test
        void refuseToRecordOneFigureTwice() {
            measurements.add(new Measurement("plain", 1, Double.NaN, Unit.OPS_PER_SECOND));
            assertThatThrownBy(() -> measurements.add(new Measurement("plain", 2, Double.NaN, Unit.OPS_PER_SECOND)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Measured twice in one run: plain");
        }
    }

    @ParameterizedTest(name = "{0}: {1} against {2} -> {3}")
    @CsvSource({
            "RATIO_AT_LEAST, 3.0, 1.0, true",
            "RATIO_AT_LEAST, 2.9, 1.0, false",
            "RATIO_AT_MOST, 7.5, 5.0, true",
            "RATIO_AT_MOST, 7.6, 5.0, false",
            "RATIO_BELOW, 0.99, 1.0, true",
            "RATIO_BELOW, 1.0, 1.0, false",
            "GROWTH_AT_MOST, 2048, 1024, true",
            "GROWTH_AT_MOST, 2049, 1024, false"})
    void targetsCompareSubjectWithBaseline(Target.Check check, double subject, double baseline, boolean met) {
        double threshold = switch (check) {
            case RATIO_AT_LEAST -> 3.0;
            case RATIO_AT_MOST -> 1.5;
            case RATIO_BELOW -> 1.0;
            case GROWTH_AT_MOST -> 1024;
        };
        assertThat(new Target(check, threshold).isMet(subject, baseline)).isEqualTo(met);
    }

    @Test
    void aTargetNeedsABaseline() {
        assertThatThrownBy(() -> new Comparison("x", "x", null, null, Target.ahead()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A target needs a baseline");
    }
}
