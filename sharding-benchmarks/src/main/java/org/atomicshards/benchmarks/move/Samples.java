package org.atomicshards.benchmarks.move;

import java.util.Arrays;

/**
 * A set of measured values (one per move, or one per unit of work) and the figures the result table shows of them:
 * the mean with its sample standard deviation, and nearest-rank percentiles. Not thread-safe.
 */
final class Samples {

    private double[] values = new double[16];
    private int size;

    void add(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("A sample must be a finite number, was " + value);
        }
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    void addAll(Samples other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** @throws IllegalStateException if there is no sample */
    double mean() {
        requireSamples("a mean");
        double sum = 0;
        for (int i = 0; i < size; i++) {
            sum += values[i];
        }
        return sum / size;
    }

    /** The sample standard deviation; NaN for a single sample (no spread can be told from one). */
    double standardDeviation() {
        requireSamples("a standard deviation");
        if (size == 1) {
            return Double.NaN;
        }
        double mean = mean();
        double squares = 0;
        for (int i = 0; i < size; i++) {
            squares += (values[i] - mean) * (values[i] - mean);
        }
        return Math.sqrt(squares / (size - 1));
    }

    /**
     * The nearest-rank percentile: the smallest sample with at least {@code percent} % of the samples at or below
     * it (so the 99th percentile of fewer than 100 samples is the largest).
     *
     * @param percent above 0, at most 100
     */
    double percentile(double percent) {
        if (!(percent > 0 && percent <= 100)) {
            throw new IllegalArgumentException("A percentile is above 0 and at most 100, was " + percent);
        }
        requireSamples("a percentile");
        double[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percent / 100 * size);
        return sorted[Math.max(1, rank) - 1];
    }

    private void requireSamples(String figure) {
        if (size == 0) {
            throw new IllegalStateException("No samples to take " + figure + " of");
        }
    }
}
