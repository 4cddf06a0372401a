package org.atomicshards.cli.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How evenly a quantity spreads over shards: the largest and smallest value, their ratio and the coefficient of
 * variation (population standard deviation over the mean).
 *
 * @param max the largest value
 * @param min the smallest value
 * @param maxOverMin {@code max / min}: 1 when all values are equal (zero included), infinite when only {@code min} is 0
 * @param coefficientOfVariation 0 for a perfect spread; 0 when every value is 0
 */
public record Skew(long max, long min, double maxOverMin, double coefficientOfVariation) {

    /** @throws IllegalArgumentException if {@code values} is empty */
    public static Skew of(long[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        double sum = 0;
        for (long v : values) {
            max = Math.max(max, v);
            min = Math.min(min, v);
            sum += v;
        }
        double mean = sum / values.length;
        double squares = 0;
        for (long v : values) {
            squares += (v - mean) * (v - mean);
        }
        double cv = mean == 0 ? 0 : Math.sqrt(squares / values.length) / mean;
        double ratio = max == min ? 1 : min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
        return new Skew(max, min, ratio, cv);
    }

    /** The ratio with three decimals, or {@code inf}. */
    public String ratioText() {
        return Double.isInfinite(maxOverMin) ? "inf" : String.format(java.util.Locale.ROOT, "%.3f", maxOverMin);
    }

    public String cvText() {
        return String.format(java.util.Locale.ROOT, "%.3f", coefficientOfVariation);
    }

    /** For JSON; an infinite ratio is {@code null}. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("max", max);
        json.put("min", min);
        json.put("maxOverMin", Double.isInfinite(maxOverMin) ? null : round(maxOverMin));
        json.put("coefficientOfVariation", round(coefficientOfVariation));
        return json;
    }

    static double round(double value) {
        return Math.round(value * 10_000d) / 10_000d;
    }
}
