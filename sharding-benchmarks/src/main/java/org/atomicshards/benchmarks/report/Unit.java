package org.atomicshards.benchmarks.report;

import java.util.Locale;

/** The unit of a {@link Measurement}, with how it is written in the result table. */
public enum Unit {

    OPS_PER_SECOND("ops/s", false),
    UNITS_PER_SECOND("units/s", false),
    ROWS_PER_SECOND("rows/s", false),
    MILLIS_PER_OP("ms/op", false),
    BYTES_PER_OP("B/op", true),
    BYTES_PER_ROW("B/row", true),
    BYTES("B", true),
    BYTES_PER_SHARD("B/shard", true),
    MILLIS("ms", false),
    /** A number of things (threads, connections), written as a whole number. */
    COUNT("", false);

    private final String symbol;
    private final boolean bytes;

    Unit(String symbol, boolean bytes) {
        this.symbol = symbol;
        this.bytes = bytes;
    }

    public String symbol() {
        return symbol;
    }

    /** Whether a larger figure is the better one (a rate), rather than the worse (a time, a size, an allocation). */
    public boolean higherIsBetter() {
        return this == OPS_PER_SECOND || this == UNITS_PER_SECOND || this == ROWS_PER_SECOND;
    }

    /** The unit JMH reports as {@code jmhUnit} ("ops/s", "ms/op", "B/op"). */
    public static Unit fromJmh(String jmhUnit) {
        for (Unit unit : values()) {
            if (unit.symbol.equals(jmhUnit)) {
                return unit;
            }
        }
        throw new IllegalArgumentException("No table unit for JMH unit '" + jmhUnit + "'; run throughput in"
                + " ops/s and latency in ms/op");
    }

    /** {@code value} (and its error, if not NaN) written for the table, e.g. {@code "5,120 ± 80 ops/s"}. */
    public String format(double value, double error) {
        if (Double.isNaN(error)) {
            return number(value) + suffix();
        }
        return number(value) + " ± " + number(error) + suffix();
    }

    /** A difference between two values of this unit, with its sign, e.g. {@code "+12.0 KiB"}. */
    public String formatDifference(double difference) {
        return (difference < 0 ? "-" : "+") + number(Math.abs(difference)) + suffix();
    }

    private String suffix() {
        if (symbol.isEmpty()) {
            return "";
        }
        if (bytes) {
            return symbol.substring(1);
        }
        return " " + symbol;
    }

    private String number(double value) {
        double magnitude = Math.abs(value);
        if (bytes) {
            if (magnitude >= 1024 * 1024) {
                return String.format(Locale.ROOT, "%.1f MiB", value / (1024 * 1024));
            }
            if (magnitude >= 1024) {
                return String.format(Locale.ROOT, "%.1f KiB", value / 1024);
            }
            return String.format(Locale.ROOT, "%.0f B", value);
        }
        if (this == COUNT) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
