package org.atomicshards.benchmarks.report;

import java.util.List;
import java.util.Optional;

/**
 * Writes one group's {@link Section} of a run: the heading, the run's date, commit and machine, links to the group's
 * charts, its result table, and notes on figures still warming up and rows not measured.
 */
final class GroupSection {

    private GroupSection() {
    }

    /** @param charts the file names of the group's charts, beside the results file, with their captions */
    static Section render(RunInfo run, GroupResult group, Measurements measurements, List<Chart> charts) {
        StringBuilder body = new StringBuilder("## ").append(group.group()).append("\n\n").append(run.markdown());
        for (Chart chart : charts) {
            body.append("\n![").append(chart.caption()).append("](").append(chart.fileName()).append(")\n");
        }
        List<Comparison> rows = group.comparisons();
        if (!ResultTable.shown(rows, measurements).isEmpty()) {
            body.append('\n').append(ResultTable.render(rows, measurements));
        }
        body.append(warmingUp(rows, measurements)).append(notMeasured(rows, measurements, group.failures()));
        int met = 0;
        int judged = 0;
        for (Comparison row : ResultTable.shown(rows, measurements)) {
            Optional<Boolean> verdict = ResultTable.met(row, measurements);
            if (verdict.isPresent()) {
                judged++;
                met += verdict.get() ? 1 : 0;
            }
        }
        String commit = run.commit() == null ? "unknown"
                : run.commit().substring(0, Math.min(12, run.commit().length())) + (run.dirty() ? "+dirty" : "");
        return new Section(group.group(), run.id(), commit, met, judged, body.toString());
    }

    private static String warmingUp(List<Comparison> rows, Measurements measurements) {
        List<String> keys = ResultTable.warmingUp(rows, measurements);
        if (keys.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nStill warming up when measured (in one of its JVMs, the first measured"
                + " iteration more than " + Math.round(SteadyState.TOLERANCE * 100) + "% worse than the median of that"
                + " JVM's others), so the rows comparing them have no verdict; run the group again with a longer "
                + "warm-up or on a faster, idler machine:\n\n");
        keys.forEach(key -> out.append("- `").append(key).append("`\n"));
        return out.toString();
    }

    private static String notMeasured(List<Comparison> rows, Measurements measurements, List<String> failures) {
        List<Comparison> missing = ResultTable.unmeasured(rows, measurements);
        if (missing.isEmpty() && failures.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nNot in the table (not measured in this run):\n\n");
        for (Comparison comparison : missing) {
            out.append("- ").append(comparison.label());
            if (comparison.baselineLabel() != null) {
                out.append(" vs ").append(comparison.baselineLabel());
            }
            out.append(" (`").append(comparison.subjectKey());
            if (comparison.baselineKey() != null) {
                out.append("` / `").append(comparison.baselineKey());
            }
            out.append("`)\n");
        }
        for (String failure : failures) {
            out.append("- ").append(failure).append('\n');
        }
        return out.toString();
    }

    /** A chart of the section: its file beside the results file and the caption its image link carries. */
    record Chart(String fileName, String caption) {
    }
}
