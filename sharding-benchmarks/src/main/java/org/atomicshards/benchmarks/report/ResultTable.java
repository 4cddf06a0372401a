package org.atomicshards.benchmarks.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Renders the comparisons of one run as one Markdown table (readable in a terminal and in the documentation): benchmark,
 * result, baseline, baseline result, ratio (with its interval, {@link Ratio}), target, met. Only rows whose subject and
 * baseline were both measured in this run are shown; {@link #unmeasured} lists the others so that nothing is silently
 * left out.
 */
public final class ResultTable {

    private static final List<String> HEADER =
            List.of("benchmark", "result", "baseline", "baseline result", "ratio", "target", "met");

    /** The verdict of a row whose subject or baseline was still warming up: neither yes nor no. */
    static final String WARMING = "**warming up**";

    private ResultTable() {
    }

    public static String render(List<Comparison> comparisons, Measurements measurements) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Comparison comparison : comparisons) {
            if (shown(comparison, measurements)) {
                rows.add(row(comparison, measurements));
            }
        }
        return markdown(rows);
    }

    /** The comparisons the table leaves out because their subject or baseline was not measured in this run. */
    public static List<Comparison> unmeasured(List<Comparison> comparisons, Measurements measurements) {
        return comparisons.stream().filter(c -> !shown(c, measurements)).toList();
    }

    /**
     * The keys of the figures the table shows that were still warming up in their measured iterations
     * ({@link Measurement#steady()}), so that the run can say why a row has no verdict.
     */
    public static List<String> warmingUp(List<Comparison> comparisons, Measurements measurements) {
        List<String> keys = new ArrayList<>();
        for (Comparison comparison : comparisons) {
            if (!shown(comparison, measurements)) {
                continue;
            }
            for (String key : Arrays.asList(comparison.subjectKey(), comparison.baselineKey())) {
                if (key != null && !keys.contains(key)
                        && measurements.find(key).map(m -> !m.steady()).orElse(false)) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }

    /** The comparisons the table shows, in their order: those whose subject (and baseline) were measured. */
    public static List<Comparison> shown(List<Comparison> comparisons, Measurements measurements) {
        return comparisons.stream().filter(c -> shown(c, measurements)).toList();
    }

    /**
     * Whether a {@linkplain #shown shown} comparison met its target: empty when it has none, or when its subject or
     * baseline was still warming up.
     */
    public static Optional<Boolean> met(Comparison comparison, Measurements measurements) {
        Measurement subject = measurements.find(comparison.subjectKey()).orElseThrow();
        Target target = comparison.target();
        if (target == null) {
            return Optional.empty();
        }
        Measurement baseline = measurements.find(comparison.baselineKey()).orElseThrow();
        if (!subject.steady() || !baseline.steady()) {
            return Optional.empty();
        }
        return Optional.of(target.isMet(subject.value(), baseline.value()));
    }

    /** Whether the table has a row for this comparison: its subject, and its baseline if it has one, were measured. */
    private static boolean shown(Comparison comparison, Measurements measurements) {
        return measurements.find(comparison.subjectKey()).isPresent()
                && (comparison.baselineKey() == null || measurements.find(comparison.baselineKey()).isPresent());
    }

    /** The row of a comparison the table {@linkplain #shown shows}. */
    private static List<String> row(Comparison comparison, Measurements measurements) {
        Measurement subject = measurements.find(comparison.subjectKey()).orElseThrow();
        if (comparison.baselineKey() == null) {
            return List.of(comparison.label(), subject.formatted(), "—", "—", "—", "—", "—");
        }
        Measurement baseline = measurements.find(comparison.baselineKey()).orElseThrow();
        double s = subject.value();
        double b = baseline.value();
        Unit unit = subject.unit();
        Target target = comparison.target();
        String relation = target == null || target.onRatio() ? Ratio.of(subject, baseline).formatted()
                : unit.formatDifference(s - b);
        String goal = target == null ? "—" : target.describe(unit);
        String met = target == null ? "—"
                : met(comparison, measurements).map(yes -> yes ? "yes" : "**no**").orElse(WARMING);
        return List.of(comparison.label(), subject.formatted(), comparison.baselineLabel(), baseline.formatted(),
                relation, goal, met);
    }

    private static String markdown(List<List<String>> rows) {
        int columns = HEADER.size();
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            line(out, rows.get(r), widths);
            if (r == 0) {
                List<String> rule = new ArrayList<>();
                for (int width : widths) {
                    rule.add("-".repeat(width));
                }
                line(out, rule, widths);
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int i = 0; i < cells.size(); i++) {
            out.append(' ').append(cells.get(i)).append(" ".repeat(widths[i] - cells.get(i).length())).append(" |");
        }
        out.append('\n');
    }
}
