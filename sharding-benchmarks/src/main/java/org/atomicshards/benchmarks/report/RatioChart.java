package org.atomicshards.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.CategoryChart;

/**
 * A group's ratios against their targets as a bar chart: for every shown row with a baseline (and a target on the
 * ratio, if any), the measured ratio with its interval as an error bar, beside its target's bound. Rows whose target
 * bounds a difference (retained heap) are left to the table.
 */
final class RatioChart {

    private RatioChart() {
    }

    /** The rows the chart draws, in table order. */
    static List<Comparison> rows(List<Comparison> comparisons, Measurements measurements) {
        return ResultTable.shown(comparisons, measurements).stream()
                .filter(row -> row.baselineKey() != null && (row.target() == null || row.target().onRatio()))
                .toList();
    }

    /**
     * Writes the chart of {@code comparisons} to {@code file} (PNG).
     *
     * @return false, writing nothing, when no row has a ratio to draw
     */
    static boolean write(String title, List<Comparison> comparisons, Measurements measurements, Path file)
            throws IOException {
        List<Comparison> rows = rows(comparisons, measurements);
        if (rows.isEmpty()) {
            return false;
        }
        List<String> labels = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        List<Double> targets = new ArrayList<>();
        for (Comparison row : rows) {
            Ratio ratio = Ratio.of(measurements.find(row.subjectKey()).orElseThrow(),
                    measurements.find(row.baselineKey()).orElseThrow());
            labels.add(row.label() + " vs " + row.baselineLabel());
            ratios.add(ratio.value());
            errors.add(ratio.hasError() ? ratio.error() : 0.0);
            targets.add(row.target() == null ? null : row.target().threshold());
        }
        CategoryChart chart = Charts.barChart(title, "ratio to the baseline (same run)", labels.size());
        List<String> bars = Charts.labels(labels);
        chart.addSeries("measured ratio (error bar: its interval)", bars, ratios, errors);
        chart.addSeries("target's bound", bars, targets);
        Charts.save(chart, file);
        return true;
    }
}
