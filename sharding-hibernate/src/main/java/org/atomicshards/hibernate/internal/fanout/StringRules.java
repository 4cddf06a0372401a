package org.atomicshards.hibernate.internal.fanout;

import java.util.Comparator;

/**
 * How the merge of one query compares strings: the order (ORDER BY, MIN/MAX, HAVING) and what makes two strings
 * equal (GROUP BY, DISTINCT, aggregates over DISTINCT values). Chosen per query from its target shards' collations
 * by {@link StringComparisonCheck}.
 *
 * @param order    the order; two strings it compares as 0 are equal (HAVING {@code =} and {@code IN})
 * @param padSpace whether strings that differ only in trailing spaces are equal (SQL PAD SPACE); then grouping and
 *                 de-duplication key a string by its characters without trailing spaces
 */
record StringRules(Comparator<String> order, boolean padSpace) {

    /**
     * What identifies a value for grouping and de-duplication as far as strings go: under PAD SPACE a string
     * without its trailing spaces, otherwise the value itself.
     */
    Object equalityKey(Object value) {
        return padSpace && value instanceof String text ? BinaryStringOrder.stripTrailingSpaces(text) : value;
    }
}
