package org.atomicshards.benchmarks.report;

import java.util.Objects;

/**
 * One measured figure of a suite run.
 *
 * @param key   what was measured, e.g. {@code "UnitOfWorkBenchmark.plainHibernate"} or
 *              {@code "MergeBenchmark.streamShardingSphere[rowsPerShard=200000]:alloc"}
 * @param value the score
 * @param error the half-width of JMH's 99.9% confidence interval, or NaN when there is none
 */
public record Measurement(String key, double value, double error, Unit unit) {

    public Measurement {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(unit, "unit");
    }

    public String formatted() {
        return unit.format(value, error);
    }
}
