package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.atomicshards.hibernate.internal.fanout.StringCollation.Equality;
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
    private static final StringCollation PAD_SPACE = StringCollation.mariaDb("utf8mb4_bin");
    private static final StringCollation NO_PAD = StringCollation.mariaDb("utf8mb4_nopad_bin");
    private static final StringCollation H2 = StringCollation.h2(null);
    private static final StringComparisonCheck UNDECLARED = new StringComparisonCheck(Comparator.naturalOrder(),
            false);
    private static final Comparator<String> DECLARED_ORDER = Comparator.reverseOrder();
    private static final StringComparisonCheck DECLARED = new StringComparisonCheck(DECLARED_ORDER, true);

    @Nested
    class Classification {

        static Stream<Arguments> collations() {
            BinaryStringOrder codePoint = BinaryStringOrder.CODE_POINT;
            BinaryStringOrder padSpace = BinaryStringOrder.CODE_POINT_PAD_SPACE;
            return Stream.of(
                    Arguments.of(StringCollation.postgres("C", "c", null), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("POSIX", "c", null), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("C.UTF-8", "c", null), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("C.utf8", "c", null), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("en_US.UTF-8", "c", null), null, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("C", "i", "und"), null, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("C", "b", "C.UTF-8"), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.postgres("C", "b", "PG_UNICODE_FAST"), null, Equality.EXACT),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_bin"), padSpace, Equality.PAD_SPACE),
                    Arguments.of(StringCollation.mariaDb("utf8mb3_bin"), padSpace, Equality.PAD_SPACE),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_nopad_bin"), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_0900_bin"), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_bin", false), codePoint, Equality.EXACT),
                    Arguments.of(StringCollation.mariaDb("binary"), codePoint, Equality.EXACT),
                    // latin1 is cp1252 in MariaDB: its byte order is not code point order (0x80 is the euro sign).
                    Arguments.of(StringCollation.mariaDb("latin1_bin"), null, Equality.LINGUISTIC),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_general_ci"), null, Equality.LINGUISTIC),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_uca1400_ai_ci"), null, Equality.LINGUISTIC),
                    Arguments.of(StringCollation.mariaDb("utf8mb4_0900_as_cs"), null, Equality.LINGUISTIC),
                    Arguments.of(StringCollation.h2(null), BinaryStringOrder.UTF16, Equality.EXACT),
                    Arguments.of(StringCollation.h2("OFF"), BinaryStringOrder.UTF16, Equality.EXACT),
                    Arguments.of(StringCollation.h2("ENGLISH STRENGTH PRIMARY"), null, Equality.LINGUISTIC),
                    Arguments.of(StringCollation.unknown("Oracle"), null, Equality.LINGUISTIC));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("collations")
        void binaryOrderAndEquality(StringCollation collation, BinaryStringOrder order, Equality equality) {
            assertThat(collation.order()).isEqualTo(order);
            assertThat(collation.equality()).isEqualTo(equality);
        }

        @Test
        void icuCollationIsNamedByItsLocale() {
            assertThat(StringCollation.postgres("C", "i", "und").name()).isEqualTo("icu:und");
        }
    }

    @Nested
    class Orderings {

        private final StringComparisonCheck undeclared = UNDECLARED;

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
            DECLARED.check(List.of("max(p.category)"), List.of(), List.of(S0, S1),
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
            assertThatCode(() -> UNDECLARED.check(List.of(), List.of("GROUP BY p.category"),
                    List.of(S0, S1), shard -> LINGUISTIC)).doesNotThrowAnyException();
        }

        @Test
        void failOnACaseInsensitiveCollationEvenWithADeclaredOrder() {
            assertThatThrownBy(() -> DECLARED.check(List.of("ORDER BY p.category"),
                    List.of("GROUP BY p.category"), List.of(S0), shard -> CASE_INSENSITIVE))
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("GROUP BY p.category")
                    .hasMessageContaining("'utf8mb4_general_ci'")
                    .hasMessageContaining("utf8mb4_nopad_bin");
        }
    }

    /** The order and equality the merge uses: the one binary rule every target shares. */
    @Nested
    class ChosenRules {

        @Test
        void postgresCOrdersByCodePoint() {
            StringRules rules = UNDECLARED.check(List.of("ORDER BY p.category"), List.of(), List.of(S0, S1),
                    shard -> BINARY);
            assertThat(rules.order()).isEqualTo(BinaryStringOrder.CODE_POINT);
            assertThat(rules.padSpace()).isFalse();
        }

        @Test
        void h2OrdersByUtf16CodeUnits() {
            StringRules rules = UNDECLARED.check(List.of("max(p.category)"), List.of(), List.of(S0), shard -> H2);
            assertThat(rules.order()).isEqualTo(BinaryStringOrder.UTF16);
        }

        @Test
        void mariaDbBinOrdersAndGroupsWithPadSpace() {
            StringRules rules = UNDECLARED.check(List.of("ORDER BY p.category"), List.of("GROUP BY p.category"),
                    List.of(S0, S1), shard -> PAD_SPACE);
            assertThat(rules.order()).isEqualTo(BinaryStringOrder.CODE_POINT_PAD_SPACE);
            assertThat(rules.padSpace()).isTrue();
            assertThat(rules.equalityKey("Bob ")).isEqualTo(rules.equalityKey("Bob"));
        }

        @Test
        void mariaDbNoPadBinGroupsByExactCharacters() {
            StringRules rules = UNDECLARED.check(List.of(), List.of("GROUP BY p.category"), List.of(S0, S1),
                    shard -> NO_PAD);
            assertThat(rules.padSpace()).isFalse();
            assertThat(rules.equalityKey("Bob ")).isNotEqualTo(rules.equalityKey("Bob"));
        }

        @Test
        void aDeclaredOrderIsUsedAndPadSpaceStillGroups() {
            StringRules rules = DECLARED.check(List.of("ORDER BY p.category"), List.of("GROUP BY p.category"),
                    List.of(S0), shard -> PAD_SPACE);
            assertThat(rules.order()).isSameAs(DECLARED_ORDER);
            assertThat(rules.padSpace()).isTrue();
        }

        @Test
        void queriesComparingNoStringsKeepTheConfiguredOrder() {
            assertThat(UNDECLARED.check(List.of(), List.of(), List.of(S0), shard -> PAD_SPACE).order())
                    .isEqualTo(Comparator.naturalOrder());
        }
    }

    /** Shards whose binary rules differ cannot be merged by one comparator. */
    @Nested
    class DifferingShards {

        @Test
        void padSpaceAndNoPadShardsAreRefusedForOrderingNamingBothShardsAndCollations() {
            assertThatThrownBy(() -> UNDECLARED.check(List.of("ORDER BY p.category"), List.of(), List.of(S0, S1),
                    Map.of(S0, PAD_SPACE, S1, NO_PAD)::get))
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("ORDER BY p.category")
                    .hasMessageContaining("shard s0: 'utf8mb4_bin'")
                    .hasMessageContaining("shard s1: 'utf8mb4_nopad_bin'")
                    .hasMessageContaining("PAD SPACE")
                    .hasMessageContaining("same collation")
                    .satisfies(e -> assertThat(((UnsupportedStringCollationException) e).collations())
                            .containsEntry(S0, "utf8mb4_bin").containsEntry(S1, "utf8mb4_nopad_bin"));
        }

        @Test
        void padSpaceAndNoPadShardsAreRefusedForGroupingEvenWithADeclaredOrder() {
            assertThatThrownBy(() -> DECLARED.check(List.of(), List.of("GROUP BY p.category"), List.of(S0, S1),
                    Map.of(S0, NO_PAD, S1, PAD_SPACE)::get))
                    .isInstanceOf(UnsupportedStringCollationException.class)
                    .hasMessageContaining("GROUP BY p.category")
                    .hasMessageContaining("trailing spaces");
        }

        @Test
        void aDeclaredOrderMergesShardsOfDifferentBinaryOrders() {
            assertThat(DECLARED.check(List.of("ORDER BY p.category"), List.of(), List.of(S0, S1),
                    Map.of(S0, PAD_SPACE, S1, NO_PAD)::get).order()).isSameAs(DECLARED_ORDER);
        }

        @Test
        void deterministicCollationsWithDifferentOrdersStillGroup() {
            StringRules rules = UNDECLARED.check(List.of(), List.of("GROUP BY p.category"), List.of(S0, S1),
                    Map.of(S0, BINARY, S1, LINGUISTIC)::get);
            assertThat(rules.padSpace()).isFalse();
        }
    }
}
