package org.atomicshards.hibernate.internal.fanout.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.UUID;

import org.atomicshards.hibernate.internal.fanout.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Values compare and add as databases do. */
class ValuesTest {

    private final Values values = new Values(Comparator.naturalOrder());

    @Test
    void uuidsCompareAsUnsignedBytes() {
        UUID low = UUID.fromString("00000000-0000-0000-0000-000000000001");
        UUID high = UUID.fromString("f0000000-0000-0000-0000-000000000000");
        assertThat(low.compareTo(high)).as("Java's signed order").isPositive();
        assertThat(values.compare(low, high)).isNegative();
    }

    @Test
    void enumsCompareByNameOnlyWhenStoredByName() {
        assertThat(values.compare(Channel.WEB, Channel.APP, false)).isNegative();
        assertThat(values.compare(Channel.WEB, Channel.APP, true)).isPositive();
    }

    @ParameterizedTest
    @CsvSource({"2, 2.0, 0", "3, 2.5, 1", "-1, 0.5, -1"})
    void numbersOfDifferentTypesCompareByValue(long integral, String decimal, int sign) {
        assertThat(Integer.signum(values.compare(integral, new BigDecimal(decimal)))).isEqualTo(sign);
        assertThat(values.equal(integral, new BigDecimal(decimal))).isEqualTo(sign == 0);
    }

    @Test
    void sumsIgnoreNullsAndKeepTheType() {
        assertThat(Values.add(null, 5L)).isEqualTo(5L);
        assertThat(Values.add(5L, null)).isEqualTo(5L);
        assertThat(Values.add(new BigDecimal("1.50"), new BigDecimal("2.25"))).isEqualTo(new BigDecimal("3.75"));
        assertThat(Values.add(1.5d, 2.0d)).isEqualTo(3.5d);
        assertThat(Values.asType(7, Long.class)).isEqualTo(7L);
    }

    /** A sum one database could not return in its type fails, rather than wrapping around. */
    @Test
    void sumsOfIntegersAndShortsOutOfTheirRangeFail() {
        assertThat(Values.add((short) 30_000, (short) 2_767)).isEqualTo((short) 32_767);
        assertThatThrownBy(() -> Values.add((short) 30_000, (short) 2_768)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> Values.add((short) -30_000, (short) -2_769))
                .isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> Values.add(Integer.MAX_VALUE, 1)).isInstanceOf(ArithmeticException.class);
    }

    /** What a bitwise aggregate's merged value is converted to: the argument's integer class. */
    @Test
    void integersTakeTheClassAsked() {
        assertThat(Values.asType(7L, Integer.class)).isEqualTo(7);
        assertThat(Values.asType(-1L, Short.class)).isEqualTo((short) -1);
        assertThat(Values.asType(5L, Byte.class)).isEqualTo((byte) 5);
        assertThat(Values.asType(9, java.math.BigInteger.class)).isEqualTo(java.math.BigInteger.valueOf(9));
        assertThat(Values.asType(3, Object.class)).isEqualTo(3);
        assertThat(Values.asType(null, Integer.class)).isNull();
    }
}
