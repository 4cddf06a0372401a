package org.atomicshards.benchmarks.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.CategoryChart;

/**
 * A group's figures that have no baseline (throughput of each routing policy, say) as a bar chart with their
 * intervals as error bars, drawn when they share one unit; figures of several units are left to the table.
 */
final class FigureChart {

    private FigureChart() {
    }

    /** The rows the chart draws, in table order: the shown rows without a baseline, if they share one unit. */
    static List<Comparison> rows(List<Comparison> comparisons, Measurements measurements) {
        List<Comparison> rows = ResultTable.shown(comparisons, measurements).stream()
                .filter(row -> row.baselineKey() == null)
                .toList();
        long units = rows.stream().map(row -> measurements.find(row.subjectKey()).orElseThrow().unit()).distinct()
                .count();
        return units == 1 ? rows : List.of();
    }

    /**
     * Writes the chart of {@code comparisons} to {@code file} (PNG).
     *
     * @return false, writing nothing, when there are no such figures or they differ in unit
     */
    static boolean write(String title, List<Comparison> comparisons, Measurements measurements, Path file)
            throws IOException {
        List<Comparison> rows = rows(comparisons, measurements);
        if (rows.isEmpty()) {
            return false;
        }
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        Unit unit = measurements.find(rows.get(0).subjectKey()).orElseThrow().unit();
        for (Comparison row : rows) {
            Measurement figure = measurements.find(row.subjectKey()).orElseThrow();
            labels.add(row.label());
            values.add(figure.value());
            errors.add(Double.isNaN(figure.error()) ? 0.0 : figure.error());
        }
        CategoryChart chart = Charts.barChart(title, unit.symbol(), labels.size());
        chart.addSeries("measured (error bar: its interval)", Charts.labels(labels), values, errors);
        Charts.save(chart, file);
        return true;
    }
}
