package org.atomicshards.benchmarks.report;

import java.util.Locale;

/**
 * A subject's figure divided by its baseline's, with the half-width of its interval propagated to first order from
 * the two figures' intervals: {@code r × √((es/s)² + (eb/b)²)}. JMH's intervals are 99.9% confidence intervals, so
 * the ratio's is one of about that level for independent measurements.
 *
 * @param value the ratio
 * @param error the half-width of its interval; NaN when either figure has none (a probe measured once)
 */
public record Ratio(double value, double error) {

    public static Ratio of(Measurement subject, Measurement baseline) {
        double value = subject.value() / baseline.value();
        double error = value * Math.hypot(subject.error() / subject.value(), baseline.error() / baseline.value());
        return new Ratio(value, Double.isFinite(error) ? Math.abs(error) : Double.NaN);
    }

    /** Whether the ratio has an interval. */
    public boolean hasError() {
        return !Double.isNaN(error);
    }

    /** The ratio as the table writes it, e.g. {@code "0.96x ± 0.02"} or {@code "0.96x"} without an interval. */
    public String formatted() {
        String ratio = Target.times(value);
        return hasError() ? ratio + " ± " + String.format(Locale.ROOT, value >= 10 ? "%.1f" : "%.2f", error) : ratio;
    }
}
