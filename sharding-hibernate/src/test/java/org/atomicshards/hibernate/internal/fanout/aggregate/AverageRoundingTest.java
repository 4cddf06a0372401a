package org.atomicshards.hibernate.internal.fanout.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The quotients each database returned for {@code avg} over a decimal column (measured with psql, the mariadb
 * client and H2 2.4 over JDBC): the merge divides the exact sum by the count to the same digits.
 */
class AverageRoundingTest {

    @ParameterizedTest(name = "PostgreSQL {0} / {1} = {2}")
    @CsvSource({
            "5.00, 3, 1.6666666666666667",
            "12349.68, 3, 4116.5600000000000000",
            "99462.06, 17, 5850.7094117647058824",
            "100000000.00, 3, 33333333.333333333333",
            "1.00, 12345, 0.000081004455245038477116",
            "0.01, 32, 0.00031250000000000000",
            "-0.01, 32, -0.00031250000000000000"})
    void postgresqlNumericDivision(String sum, long count, String expected) {
        assertThat(AverageRounding.of(new PostgreSQLDialect(), () -> 99).divide(new BigDecimal(sum),
                BigDecimal.valueOf(count))).isEqualTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "MariaDB {0} / {1} = {2}")
    @CsvSource({
            "5.00, 3, 1.666667",
            "0.01, 32, 0.000313",
            "-0.01, 32, -0.000313",
            "-5.00, 3, -1.666667"})
    void mariaDbScalePlusTheIncrementHalfUp(String sum, long count, String expected) {
        assertThat(AverageRounding.of(new MariaDBDialect(), () -> 4).divide(new BigDecimal(sum),
                BigDecimal.valueOf(count))).isEqualTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "H2 {0} / {1} = {2}")
    @CsvSource({
            "5.00, 3, 1.666666666667",
            "0.03, 2048, 0.000014648437",
            "-0.03, 2048, -0.000014648437",
            "0.01, 3, 0.003333333333"})
    void h2ScalePlusTenHalfDown(String sum, long count, String expected) {
        assertThat(AverageRounding.of(new H2Dialect(), () -> 4).divide(new BigDecimal(sum),
                BigDecimal.valueOf(count))).isEqualTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "integers on {0}")
    @CsvSource({"h2, 1.6666666666666667", "postgresql, 1.6666666666666667", "mariadb, 1.6667"})
    void integerSums(String database, double expected) {
        AverageRounding rounding = AverageRounding.of(switch (database) {
            case "h2" -> new H2Dialect();
            case "postgresql" -> new PostgreSQLDialect();
            default -> new MariaDBDialect();
        }, () -> 4);
        assertThat(rounding.average(5L, 3)).isEqualTo(expected);
        assertThat(rounding.average(null, 0)).isNull();
    }
}
