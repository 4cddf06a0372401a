package org.atomicshards.benchmarks.report;

import java.util.Objects;

/**
 * One measured figure of a suite run.
 *
 * @param key   what was measured, e.g. {@code "UnitOfWorkBenchmark.plainHibernate"} or
 *              {@code "MergeBenchmark.streamShardingSphere[rowsPerShard=200000]:alloc"}
 * @param value the score
 * @param error the half-width of JMH's 99.9% confidence interval, or NaN when there is none
 * @param steady false when its measured iterations were still warming up ({@link SteadyState}): no target is judged
 *               on it
 */
public record Measurement(String key, double value, double error, Unit unit, boolean steady) {

    public Measurement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(unit, "unit");
    }

    /** A figure measured once or in a steady state (a probe's, or a JMH result that passed {@link SteadyState}). */
    public Measurement(String key, double value, double error, Unit unit) {
        this(key, value, error, unit, true);
    }

    public String formatted() {
        return unit.format(value, error);
    }
}
