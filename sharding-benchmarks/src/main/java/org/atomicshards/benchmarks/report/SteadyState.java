package org.atomicshards.benchmarks.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Whether a benchmark's measured iterations show a steady state or a JVM still warming up. On a slow machine the JIT
 * may still be compiling when the measurement begins: the first measured iteration is then clearly worse than the
 * others, and a ratio against a warm baseline says more about the warm-up than about the code. Such a figure keeps
 * its value in the table, but no target is judged on it.
 */
public final class SteadyState {

    /** How much worse than the median of the later iterations the first may be and still count as warm. */
    public static final double TOLERANCE = 0.15;

    private SteadyState() {
    }

    /**
     * @param scores          the measured iterations' scores, in the order they ran
     * @param higherIsBetter  whether a larger score is better (throughput) or worse (time, allocation)
     * @return false if the first iteration is more than {@link #TOLERANCE} worse than the median of the others; true
     *         with fewer than three iterations (too few to tell)
     */
    public static boolean reached(List<Double> scores, boolean higherIsBetter) {
        if (scores.size() < 3) {
            return true;
        }
        double first = scores.get(0);
        double later = median(scores.subList(1, scores.size()));
        if (later == 0) {
            return true;
        }
        double worseBy = higherIsBetter ? (later - first) / later : (first - later) / later;
        return worseBy <= TOLERANCE;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
