package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The binary string orders against their definitions: UTF-8 bytes, and UTF-8 bytes padded with spaces. */
class BinaryStringOrderTest {

    private static final String ROCKET = "🚀 Rocket Ltd #21";
    private static final String LIGATURE = "ﬁne Ligature #18";

    @Test
    void codePointOrderPutsSupplementaryCharactersAfterTheEndOfTheBasicPlane() {
        assertThat(BinaryStringOrder.CODE_POINT.compare(ROCKET, LIGATURE)).isPositive();
        assertThat(BinaryStringOrder.CODE_POINT_PAD_SPACE.compare(ROCKET, LIGATURE)).isPositive();
        assertThat(BinaryStringOrder.UTF16.compare(ROCKET, LIGATURE)).isNegative();
    }

    @Test
    void padSpaceIgnoresTrailingSpacesButNotTabs() {
        BinaryStringOrder pad = BinaryStringOrder.CODE_POINT_PAD_SPACE;
        assertThat(pad.compare("Bob", "Bob ")).isZero();
        assertThat(pad.compare("Bob  ", "Bob")).isZero();
        assertThat(pad.compare("Bob", "Bob\t")).isPositive();
        assertThat(pad.compare("Bob\t", "Bob")).isNegative();
        assertThat(pad.compare("Bob", "Bob a")).isNegative();
        assertThat(pad.equalityKey("Bob  ")).isEqualTo("Bob");
        assertThat(BinaryStringOrder.CODE_POINT.compare("Bob", "Bob ")).isNegative();
    }

    @Test
    void codePointOrderIsUtf8ByteOrder() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            String left = randomString(random);
            String right = randomString(random);
            assertThat(Integer.signum(BinaryStringOrder.CODE_POINT.compare(left, right)))
                    .as("%s vs %s", left, right)
                    .isEqualTo(Integer.signum(Arrays.compareUnsigned(utf8(left), utf8(right))));
        }
    }

    @Test
    void padSpaceOrderIsUtf8ByteOrderOfStringsPaddedToEqualLength() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            String left = randomString(random);
            String right = randomString(random);
            byte[] l = utf8(left);
            byte[] r = utf8(right);
            int length = Math.max(l.length, r.length);
            assertThat(Integer.signum(BinaryStringOrder.CODE_POINT_PAD_SPACE.compare(left, right)))
                    .as("%s vs %s", left, right)
                    .isEqualTo(Integer.signum(Arrays.compareUnsigned(padded(l, length), padded(r, length))));
        }
    }

    private static String randomString(Random random) {
        int[] alphabet = {' ', '\t', 'a', 'B', 'b', 0xE9, 0xD7FF, 0xE000, 0xFB01, 0xFFFD, 0x1F680, 0x10000,
                0x10FFFF};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(5);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
        }
        return text.toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] padded(byte[] bytes, int length) {
        byte[] result = Arrays.copyOf(bytes, length);
        Arrays.fill(result, bytes.length, length, (byte) ' ');
        return result;
    }
}
