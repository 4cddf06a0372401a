package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which collations the merge reproduces, and which queries are refused on the others. */
class StringComparisonCheckTest {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final StringCollation BINARY = StringCollation.postgres("C.UTF-8", "c", null);
    private static final StringCollation LINGUISTIC = StringCollation.postgres("en_US.UTF-8", "c", null);
    private static final StringCollation CASE_INSENSITIVE = StringCollation.mariaDb("utf8mb4_general_ci");

    @Nested
    class Classification {

        static Stream<Arguments> collations() {
            return Stream.of(
                    Arguments.of(StringCollation.postgres("C", "c", null), true, true),
                    Arguments.of(StringCollation.postgres("POSIX", "c", null), true, true),
                    Arguments.of(StringCollation.postgres("C.UTF-8", "c", null), true, true),
                    Arguments.of(StringCollation.postgres("C.utf8", "c", null), true, true),
                    Arguments.of(StringCollation.postgres("en_US.UTF-8", "c", null), false, true),
                    Arguments.of(StringCollation.postgres("C", "i", "und"), false, true),
                    Arguments.of(StringCollation.postgres("C", "b", "C.UTF-8"), true, true),
                    Arguments.of(StringCollation.postgres("C", "b", "PG_UNICODE_FAST"), false, true),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_bin"), true, true),
                    Arguments.of(StringCollation.mariaDb("binary"), true, true),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_general_ci"), false, false),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_uca1400_ai_ci"), false, false),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_0900_as_cs"), false, false),
                    Arguments.of(StringCollation.h2(null), true, true),
                    Arguments.of(StringCollation.h2("OFF"), true, true),
                    Arguments.of(StringCollation.h2("ENGLISH STRENGTH PRIMARY"), false, false),
                    Arguments.of(StringCollation.unknown("Oracle"), false, false));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("collations")
        void binaryOrderAndEquality(StringCollation collation, boolean binaryOrder, boolean binaryEquality) {
            assertThat(collation.binaryOrder()).isEqualTo(binaryOrder);
            assertThat(collation.binaryEquality()).isEqualTo(binaryEquality);
        }

        @Test
        void icuCollationIsNamedByItsLocale() {
            assertThat(StringCollation.postgres("C", "i", "und").name()).isEqualTo("icu:und");
        }
    }

    @Nested
    class Orderings {

        private final StringComparisonCheck undeclared = new StringComparisonCheck(false);

        @Test
        void passOnBinaryShards() {
            assertThatCode(() -> undeclared.check(List.of("ORDER BY p.category"), List.of(), List.of(S0, S1),
                    Map.of(S0, BINARY, S1, BINARY)::get)).doesNotThrowAnyException();
        }

        @Test
        void failNamingTheConstructTheShardTheCollationAndTheFix() {
            assertThatThrownBy(() -> undeclared.check(List.of("ORDER BY p.category"), List.of(), List.of(S0, S1),
                    Map.of(S0, BINARY, S1, LINGUISTIC)::get))
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("ORDER BY p.category")
                    .hasMessageContaining("Shard s1")
                    .hasMessageContaining("'en_US.UTF-8'")
                    .hasMessageContaining("binary collation for the column or the database")
                    .hasMessageContaining("FanOutSettings.stringOrder")
                    .satisfies(e -> {
                        UnsupportedStringCollationException refused = (UnsupportedStringCollationException) e;
                        assertThat(refused.shard()).isEqualTo(S1);
                        assertThat(refused.collation()).isEqualTo("en_US.UTF-8");
                        assertThat(refused.construct()).startsWith("ORDER BY p.category");
                    });
        }

        @Test
        void passUnderADeclaredOrderWithoutReadingTheCollation() {
            List<ShardId> read = new ArrayList<>();
            new StringComparisonCheck(true).check(List.of("max(p.category)"), List.of(), List.of(S0, S1),
                    shard -> {
                        read.add(shard);
                        return LINGUISTIC;
                    });
            assertThat(read).isEmpty();
        }

        @Test
        void queriesComparingNoStringsNeverReadTheCollation() {
            List<ShardId> read = new ArrayList<>();
            undeclared.check(List.of(), List.of(), List.of(S0, S1), shard -> {
                read.add(shard);
                return CASE_INSENSITIVE;
            });
            assertThat(read).isEmpty();
        }
    }

    @Nested
    class Equalities {

        @Test
        void passOnADeterministicLinguisticCollation() {
            assertThatCode(() -> new StringComparisonCheck(false).check(List.of(), List.of("GROUP BY p.category"),
                    List.of(S0, S1), shard -> LINGUISTIC)).doesNotThrowAnyException();
        }

        @Test
        void failOnACaseInsensitiveCollationEvenWithADeclaredOrder() {
            assertThatThrownBy(() -> new StringComparisonCheck(true).check(List.of("ORDER BY p.category"),
                    List.of("GROUP BY p.category"), List.of(S0), shard -> CASE_INSENSITIVE))
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("GROUP BY p.category")
                    .hasMessageContaining("'utf8mb4_general_ci'")
                    .hasMessageContaining("utf8mb4_bin");
        }
    }
}
