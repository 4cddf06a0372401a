package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.function.IntSupplier;

import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;

/**
 * Finishes a merged AVG from the exact SUM and COUNT of all shards the way one database computes it, so that the
 * Double Hibernate returns is the same.
 *
 * <p>On H2 and PostgreSQL, Hibernate renders {@code avg(x)} as {@code avg(cast(x as double))} when x is an integer
 * column, so over int, short and long the database divides a double sum by the count: so does the merge (equal while
 * the sum is below 2^53, where doubles hold integers exactly). MariaDB averages integers as decimals of scale 0 (see
 * below; measured through Hibernate 7.4). Over double columns the database divides its double sum; the
 * merged sum adds the shards' partial sums in another order, so the last bits can differ unless the values add
 * exactly. Over exact numerics (BigDecimal, BigInteger) the database returns a decimal rounded to a scale of its
 * own, which Hibernate converts to Double; the merge rounds the exact quotient to that scale:
 * <ul>
 *   <li>H2: the sum's scale + 10, rounding half down;</li>
 *   <li>PostgreSQL: the scale numeric division chooses (at least 16 significant digits, at least the sum's scale),
 *       rounding half away from zero;</li>
 *   <li>MariaDB and MySQL: the sum's scale + {@code div_precision_increment} (read from a shard once, default 4;
 *       all shards must use one value), at most 38, rounding half away from zero.</li>
 * </ul>
 * Another database: the exact quotient to 34 significant digits.
 */
abstract class AverageRounding {

    /** The rounding of the database the dialect speaks to. */
    static AverageRounding of(Dialect dialect, IntSupplier divPrecisionIncrement) {
        if (dialect instanceof H2Dialect) {
            return new FixedExtraScale(() -> 10, RoundingMode.HALF_DOWN, Integer.MAX_VALUE);
        }
        if (dialect instanceof PostgreSQLDialect) {
            return new PostgresDivision();
        }
        if (dialect instanceof MariaDBDialect || dialect instanceof MySQLDialect) {
            return new FixedExtraScale(divPrecisionIncrement, RoundingMode.HALF_UP, 38) {
                @Override
                boolean integersAsDecimals() {
                    return true;
                }
            };
        }
        return new Exact();
    }

    /** Whether the database averages integer columns as exact decimals (otherwise as doubles). */
    boolean integersAsDecimals() {
        return false;
    }

    /** The average of {@code count} values summing to {@code sum} (the merged SUM's value), or null for none. */
    final Double average(Object sum, long count) {
        if (sum == null || count == 0) {
            return null;
        }
        boolean integral = sum instanceof Long || sum instanceof Integer || sum instanceof Short
                || sum instanceof Byte;
        if (sum instanceof BigDecimal || sum instanceof BigInteger || integral && integersAsDecimals()) {
            BigDecimal exact = Values.toBigDecimal((Number) sum);
            return divide(exact, BigDecimal.valueOf(count)).doubleValue();
        }
        return ((Number) sum).doubleValue() / count;
    }

    /** The database's quotient of an exact sum by a count. */
    abstract BigDecimal divide(BigDecimal sum, BigDecimal count);

    /** A result scale of the sum's scale plus a fixed increment. */
    private static class FixedExtraScale extends AverageRounding {
        private final IntSupplier increment;
        private final RoundingMode rounding;
        private final int maxScale;

        FixedExtraScale(IntSupplier increment, RoundingMode rounding, int maxScale) {
            this.increment = increment;
            this.rounding = rounding;
            this.maxScale = maxScale;
        }

        @Override
        BigDecimal divide(BigDecimal sum, BigDecimal count) {
            int scale = Math.min(maxScale, Math.max(0, sum.scale()) + increment.getAsInt());
            return sum.divide(count, scale, rounding);
        }
    }

    /** PostgreSQL's {@code numeric_div}: the scale of {@code select_div_scale}, rounding half away from zero. */
    private static final class PostgresDivision extends AverageRounding {
        private static final int MIN_SIGNIFICANT_DIGITS = 16;
        private static final int MAX_DISPLAY_SCALE = 1000;

        @Override
        BigDecimal divide(BigDecimal sum, BigDecimal count) {
            int quotientWeight = weight(sum) - weight(count);
            if (firstDigit(sum) <= firstDigit(count)) {
                quotientWeight--;
            }
            int scale = MIN_SIGNIFICANT_DIGITS - quotientWeight * 4;
            scale = Math.max(scale, Math.max(0, sum.scale()));
            scale = Math.max(scale, Math.max(0, count.scale()));
            scale = Math.min(Math.max(scale, 0), MAX_DISPLAY_SCALE);
            return sum.divide(count, scale, RoundingMode.HALF_UP);
        }

        /** The power of 10000 of the value's first base-10000 digit (0 for zero). */
        private static int weight(BigDecimal value) {
            if (value.signum() == 0) {
                return 0;
            }
            int exponent = value.precision() - value.scale() - 1;
            return Math.floorDiv(exponent, 4);
        }

        /** The value's first base-10000 digit (1..9999; 0 for zero). */
        private static int firstDigit(BigDecimal value) {
            if (value.signum() == 0) {
                return 0;
            }
            return value.abs().movePointLeft(4 * weight(value)).intValue();
        }
    }

    /** No known rule: the exact quotient to 34 significant digits. */
    private static final class Exact extends AverageRounding {
        @Override
        BigDecimal divide(BigDecimal sum, BigDecimal count) {
            return sum.divide(count, MathContext.DECIMAL128);
        }
    }
}
