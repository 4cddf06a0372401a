package org.atomicshards.cli.command;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.atomicshards.hibernate.admin.MoveReport;

/** A finished move as one line of text or as a JSON object. */
final class MoveReports {

    private MoveReports() {
    }

    /** {@code moved virtual shards 0-3 to s1: 52 units, 210 rows in 1.204 s (43.2 units/s), longest write pause ...}. */
    static String text(MoveReport report) {
        if (report.virtualShards().isEmpty() || report.units() == 0 && report.writePauses().isEmpty()) {
            return "nothing moved: " + (report.virtualShards().isEmpty() ? "no virtual shard to move"
                    : "virtual shards " + ranges(report.virtualShards()) + " are on " + report.target() + " already")
                    + " (map version " + report.mapVersion() + ")";
        }
        return withFigures("moved virtual shards " + ranges(report.virtualShards()) + " to " + report.target(), report);
    }

    /**
     * A finished change of a consistent-hash ring, {@code what} saying which ({@code shard s3 left the ring of User}),
     * with the figures of {@link #text(MoveReport)}.
     */
    static String ringText(String what, MoveReport report) {
        if (report.units() == 0 && report.writePauses().isEmpty()) {
            return "nothing moved: " + what + " already (map version " + report.mapVersion() + ")";
        }
        return withFigures(what, report);
    }

    private static String withFigures(String what, MoveReport report) {
        StringBuilder text = new StringBuilder(what).append(String.format(Locale.ROOT, ": %d units, "
                        + "%d rows in %.3f s (%.1f units/s), longest write pause %d ms over %d batch(es), map version %d, "
                        + "operation %s", report.units(), report.rows(),
                report.duration().toMillis() / 1000.0, report.unitsPerSecond(), report.longestWritePause().toMillis(),
                report.writePauses().size(), report.mapVersion(), report.operationId()));
        report.warnings().forEach(warning -> text.append(System.lineSeparator()).append("  warning: ").append(warning));
        return text.toString();
    }

    static Map<String, Object> json(MoveReport report) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("operationId", report.operationId());
        json.put("virtualShards", new ArrayList<>(new TreeSet<>(report.virtualShards())));
        json.put("target", report.target().name());
        json.put("units", report.units());
        json.put("rows", report.rows());
        json.put("durationMillis", report.duration().toMillis());
        json.put("unitsPerSecond", report.unitsPerSecond());
        json.put("writePausesMillis", report.writePauses().stream().map(Duration::toMillis).toList());
        json.put("longestWritePauseMillis", report.longestWritePause().toMillis());
        json.put("mapVersion", report.mapVersion());
        json.put("warnings", report.warnings());
        return json;
    }

    static List<Map<String, Object>> json(Collection<MoveReport> reports) {
        return reports.stream().map(MoveReports::json).toList();
    }

    /** Ascending numbers as ranges: {@code 0-3,8}. */
    static String ranges(Collection<Integer> numbers) {
        StringBuilder text = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int n : new TreeSet<>(numbers)) {
            if (previous != null && n == previous + 1) {
                previous = n;
                continue;
            }
            append(text, start, previous);
            start = n;
            previous = n;
        }
        append(text, start, previous);
        return text.toString();
    }

    private static void append(StringBuilder text, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (!text.isEmpty()) {
            text.append(',');
        }
        text.append(start);
        if (!end.equals(start)) {
            text.append('-').append(end);
        }
    }
}
