package org.atomicshards.hibernate.internal.fanout;

import java.util.Comparator;

/**
 * The string orders of the binary collations the merge reproduces exactly. They differ only on strings that
 * contain characters outside the Basic Multilingual Plane (emoji, stored in Java as surrogate pairs) together with
 * characters U+E000 to U+FFFF, and on trailing spaces.
 */
enum BinaryStringOrder implements Comparator<String> {

    /** UTF-16 code units, Java's {@link String#compareTo}: H2's default (binary) comparison. */
    UTF16("UTF-16 code unit order") {
        @Override
        public int compare(String left, String right) {
            return left.compareTo(right);
        }
    },

    /**
     * Unicode code points, which is UTF-8 byte order: PostgreSQL {@code C}, {@code POSIX} and {@code C.UTF-8},
     * MariaDB {@code utf8mb4_nopad_bin} and {@code binary}. A supplementary character (U+10000 and above) sorts after
     * U+E000-U+FFFF, where UTF-16 order puts it before (its surrogates are U+D800-U+DFFF).
     */
    CODE_POINT("code point order") {
        @Override
        public int compare(String left, String right) {
            int prefix = commonPrefix(left, right);
            if (prefix < Math.min(left.length(), right.length())) {
                return codePointRank(left.charAt(prefix)) - codePointRank(right.charAt(prefix));
            }
            return left.length() - right.length();
        }
    },

    /**
     * Code points, comparing a shorter string as if padded with spaces to the longer one's length (SQL PAD SPACE):
     * MariaDB's {@code utf8mb4_bin}. {@code 'a'} equals {@code 'a '}, and {@code 'a'} sorts after {@code 'a\t'}
     * (a space is greater than a tab).
     */
    CODE_POINT_PAD_SPACE("code point order with PAD SPACE (trailing spaces ignored)") {
        @Override
        public int compare(String left, String right) {
            int length = commonPrefix(left, right);
            if (length < Math.min(left.length(), right.length())) {
                return codePointRank(left.charAt(length)) - codePointRank(right.charAt(length));
            }
            for (int i = length; i < left.length(); i++) {
                if (left.charAt(i) != ' ') {
                    return codePointRank(left.charAt(i)) - ' ';
                }
            }
            for (int i = length; i < right.length(); i++) {
                if (right.charAt(i) != ' ') {
                    return ' ' - codePointRank(right.charAt(i));
                }
            }
            return 0;
        }

        @Override
        Object equalityKey(String value) {
            return stripTrailingSpaces(value);
        }
    };

    private final String description;

    BinaryStringOrder(String description) {
        this.description = description;
    }

    /** What the order is, for messages. */
    String description() {
        return description;
    }

    /**
     * What two strings equal under this order have in common: the string itself, or for PAD SPACE the string
     * without its trailing spaces (so that grouping and de-duplication can hash it).
     */
    Object equalityKey(String value) {
        return value;
    }

    /** How many leading UTF-16 code units the two strings share. */
    private static int commonPrefix(String left, String right) {
        int length = Math.min(left.length(), right.length());
        int i = 0;
        while (i < length && left.charAt(i) == right.charAt(i)) {
            i++;
        }
        return i;
    }

    /**
     * A UTF-16 code unit's rank in code point order, for the first unit where two strings differ (the units before
     * it are equal, so both are at the same position of a surrogate pair or neither is). Surrogates
     * (U+D800-U+DFFF) stand for code points above U+FFFF, so they move above U+E000-U+FFFF.
     */
    private static int codePointRank(char unit) {
        if (unit < Character.MIN_SURROGATE) {
            return unit;
        }
        return Character.isSurrogate(unit) ? unit + 0x2000 : unit - 0x800;
    }

    static String stripTrailingSpaces(String value) {
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == ' ') {
            end--;
        }
        return end == value.length() ? value : value.substring(0, end);
    }
}
