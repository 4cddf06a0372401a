package org.atomicshards.benchmarks.report;

import java.util.Objects;

/**
 * One row of the result table: a measured subject against a baseline measured in the same run, with the issue's
 * target for it. A row without a baseline or without a target is shown for information and is never "met".
 *
 * @param label          what the row compares, in words
 * @param subjectKey     the measurement shown as the result
 * @param baselineLabel  what the baseline is, in words; null when there is no baseline
 * @param baselineKey    the measurement the subject is compared with; null when there is no baseline
 * @param target         the goal; null for an informational row
 */
public record Comparison(String label, String subjectKey, String baselineLabel, String baselineKey, Target target) {

    public Comparison {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(subjectKey, "subjectKey");
        if ((baselineKey == null) != (baselineLabel == null)) {
            throw new IllegalArgumentException("A baseline needs both a key and a label: " + label);
        }
        if (target != null && baselineKey == null) {
            throw new IllegalArgumentException("A target needs a baseline to compare with: " + label);
        }
    }

    public static Comparison against(String label, String subjectKey, String baselineLabel, String baselineKey,
                                     Target target) {
        return new Comparison(label, subjectKey, baselineLabel, baselineKey, target);
    }

    public static Comparison context(String label, String subjectKey, String baselineLabel, String baselineKey) {
        return new Comparison(label, subjectKey, baselineLabel, baselineKey, null);
    }

    public static Comparison standalone(String label, String subjectKey) {
        return new Comparison(label, subjectKey, null, null, null);
    }
}
