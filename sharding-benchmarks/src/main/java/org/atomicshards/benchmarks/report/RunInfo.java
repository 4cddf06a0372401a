package org.atomicshards.benchmarks.report;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/**
 * What one run of the benchmark command ran on and when: written above each of its groups' sections, so that every
 * figure in the results file says which code and which machine produced it.
 *
 * @param start       when the run began
 * @param duration    how long it took
 * @param commit      the commit checked out ({@code git rev-parse HEAD}); null outside a git work tree
 * @param dirty       whether the work tree had changes outside {@code docs/} (not committed, so not in {@code commit})
 * @param cpuModel    the processor's model name
 * @param cores       the processors the JVM saw
 * @param jdk         the JVM's name and version
 * @param os          the operating system's name and version
 * @param loadAtStart the load average (1, 5 and 15 minutes) when the run began; other work skews the figures
 * @param loadAtEnd   the load average when the last group had run
 * @param groups      the groups the run ran, in the order it ran them
 */
public record RunInfo(Instant start, Duration duration, String commit, boolean dirty, String cpuModel, int cores,
                      String jdk, String os, String loadAtStart, String loadAtEnd, List<String> groups) {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    public RunInfo {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(duration, "duration");
        groups = List.copyOf(groups);
    }

    /** The start to the second, ISO-8601 in UTC: the run's identity in the results file's markers. */
    public String id() {
        return start.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The start to the minute, for readers: {@code 2026-12-07 14:05 UTC}. */
    public String date() {
        return MINUTE.format(start);
    }

    /** The commit's first 12 digits, {@code "+ uncommitted changes"} when dirty, or "unknown". */
    public String commitDescription() {
        if (commit == null) {
            return "unknown (not run in a git work tree)";
        }
        String shortHash = commit.substring(0, Math.min(12, commit.length()));
        return dirty ? shortHash + " + uncommitted changes" : shortHash;
    }

    /** The Markdown lines describing the run, one list item each. */
    public String markdown() {
        return "- run: " + date() + ", " + minutes(duration) + ", groups " + String.join(", ", groups) + "\n"
                + "- commit: `" + commitDescription() + "`\n"
                + "- machine: " + cores + " cores, " + cpuModel + "; " + jdk + "; " + os + "\n"
                + "- load average (1, 5, 15 min): " + loadAtStart + " at the start, " + loadAtEnd + " at the end\n";
    }

    private static String minutes(Duration duration) {
        return String.format("%d:%02d min", duration.toMinutes(), duration.toSecondsPart());
    }
}
