package org.atomicshards.benchmarks.report;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The look the suite's charts share (XChart bar charts on white, labels readable on GitHub), and their PNG output. */
final class Charts {

    /** Labels longer than this are cut with an ellipsis: the table beside the chart has them whole. */
    static final int MAX_LABEL = 90;

    private static final int WIDTH = 1100;

    private Charts() {
    }

    /** A bar chart of {@code bars} categories, tall enough for their labels written at an angle below. */
    static CategoryChart barChart(String title, String yAxisTitle, int bars) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(400 + 5 * MAX_LABEL)
                .title(title).yAxisTitle(yAxisTitle).build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        chart.getStyler().setXAxisLabelRotation(60);
        chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        chart.getStyler().setErrorBarsColor(Color.BLACK);
        chart.getStyler().setAvailableSpaceFill(bars < 4 ? 0.4 : 0.7);
        chart.getStyler().setSeriesColors(new Color[] {new Color(0x3b6ea5), new Color(0xb0b0b0)});
        return chart;
    }

    /**
     * The bars' labels: {@code texts} without the topic they all share before their first {@code ": "} (the chart's
     * title names the group), each cut to {@link #MAX_LABEL} characters.
     */
    static List<String> labels(List<String> texts) {
        String topic = texts.get(0).contains(": ") ? texts.get(0).substring(0, texts.get(0).indexOf(": ") + 2) : "";
        boolean shared = !topic.isEmpty() && texts.size() > 1 && texts.stream().allMatch(text -> text.startsWith(topic));
        return texts.stream()
                .map(text -> shared ? text.substring(topic.length()) : text)
                .map(text -> text.length() <= MAX_LABEL ? text : text.substring(0, MAX_LABEL - 1) + "…")
                .toList();
    }

    /** Writes {@code chart} to {@code file} as PNG, replacing it. */
    static void save(CategoryChart chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
