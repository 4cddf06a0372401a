package org.atomicshards.benchmarks.report;

import java.util.Locale;

/**
 * A goal for a comparison of a measured figure (the subject) with its baseline from the same run.
 *
 * @param check     how subject and baseline are compared
 * @param threshold the ratio bound, or for {@link Check#GROWTH_AT_MOST} the allowed growth in the unit's base
 *                  (bytes for memory)
 */
public record Target(Check check, double threshold) {

    /** The comparison a target makes. */
    public enum Check {
        /** subject / baseline >= threshold (throughput: at least this fraction or multiple of the baseline). */
        RATIO_AT_LEAST,
        /** subject / baseline <= threshold (latency or memory: at most this multiple of the baseline). */
        RATIO_AT_MOST,
        /** subject / baseline < threshold (latency: strictly ahead when the threshold is 1). */
        RATIO_BELOW,
        /** subject - baseline <= threshold (memory: grows by at most this much). */
        GROWTH_AT_MOST
    }

    public static Target ratioAtLeast(double threshold) {
        return new Target(Check.RATIO_AT_LEAST, threshold);
    }

    public static Target ratioAtMost(double threshold) {
        return new Target(Check.RATIO_AT_MOST, threshold);
    }

    /** Lower latency than the baseline: subject / baseline below 1. */
    public static Target ahead() {
        return new Target(Check.RATIO_BELOW, 1.0);
    }

    public static Target growthAtMost(double amount) {
        return new Target(Check.GROWTH_AT_MOST, amount);
    }

    public boolean isMet(double subject, double baseline) {
        return switch (check) {
            case RATIO_AT_LEAST -> subject / baseline >= threshold;
            case RATIO_AT_MOST -> subject / baseline <= threshold;
            case RATIO_BELOW -> subject / baseline < threshold;
            case GROWTH_AT_MOST -> subject - baseline <= threshold;
        };
    }

    /** Whether the target bounds the ratio of subject to baseline, rather than their difference. */
    public boolean onRatio() {
        return check != Check.GROWTH_AT_MOST;
    }

    public String describe(Unit unit) {
        return switch (check) {
            case RATIO_AT_LEAST -> "≥ " + times(threshold);
            case RATIO_AT_MOST -> "≤ " + times(threshold);
            case RATIO_BELOW -> "< " + times(threshold);
            case GROWTH_AT_MOST -> "≤ " + unit.formatDifference(threshold);
        };
    }

    static String times(double ratio) {
        return String.format(Locale.ROOT, ratio >= 10 ? "%.1fx" : "%.2fx", ratio);
    }
}
