package org.atomicshards.benchmarks.report;

import java.util.List;
import java.util.Objects;

/**
 * What one suite group produced in a run: the comparisons it measures (whether measured or not) and what went wrong.
 *
 * @param group       the group's name ({@code merge-limit}, {@code heap-probes}, ...)
 * @param comparisons the result table's rows the group measures, in table order
 * @param failures    why figures are missing, one sentence each; empty when nothing failed
 */
public record GroupResult(String group, List<Comparison> comparisons, List<String> failures) {

    public GroupResult {
        Objects.requireNonNull(group, "group");
        comparisons = List.copyOf(comparisons);
        failures = List.copyOf(failures);
    }
}
