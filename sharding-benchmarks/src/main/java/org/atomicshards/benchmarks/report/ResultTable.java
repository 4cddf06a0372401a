package org.atomicshards.benchmarks.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Renders the comparisons of one run as one Markdown table (readable in a terminal and in the README): benchmark,
 * result, baseline, baseline result, ratio, target, met. Only rows whose subject and baseline were both measured in
 * this run are shown; {@link #unmeasured} lists the others so that nothing is silently left out.
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
            row(comparison, measurements).ifPresent(rows::add);
        }
        return markdown(rows);
    }

    /** The comparisons the table leaves out because their subject or baseline was not measured in this run. */
    public static List<Comparison> unmeasured(List<Comparison> comparisons, Measurements measurements) {
        return comparisons.stream().filter(c -> row(c, measurements).isEmpty()).toList();
    }

    /**
     * The keys of the figures the table shows that were still warming up in their measured iterations
     * ({@link Measurement#steady()}), so that the run can say why a row has no verdict.
     */
    public static List<String> warmingUp(List<Comparison> comparisons, Measurements measurements) {
        List<String> keys = new ArrayList<>();
        for (Comparison comparison : comparisons) {
            if (row(comparison, measurements).isEmpty()) {
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

    private static Optional<List<String>> row(Comparison comparison, Measurements measurements) {
        Optional<Measurement> subject = measurements.find(comparison.subjectKey());
        if (subject.isEmpty()) {
            return Optional.empty();
        }
        if (comparison.baselineKey() == null) {
            return Optional.of(List.of(comparison.label(), subject.get().formatted(), "—", "—", "—", "—", "—"));
        }
        Optional<Measurement> baseline = measurements.find(comparison.baselineKey());
        if (baseline.isEmpty()) {
            return Optional.empty();
        }
        double s = subject.get().value();
        double b = baseline.get().value();
        Unit unit = subject.get().unit();
        Target target = comparison.target();
        String relation = target == null ? Target.ratio(s, b) : target.relation(s, b, unit);
        String goal = target == null ? "—" : target.describe(unit);
        String met = target == null ? "—"
                : !subject.get().steady() || !baseline.get().steady() ? WARMING
                : target.isMet(s, b) ? "yes" : "**no**";
        return Optional.of(List.of(comparison.label(), subject.get().formatted(), comparison.baselineLabel(),
                baseline.get().formatted(), relation, goal, met));
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
