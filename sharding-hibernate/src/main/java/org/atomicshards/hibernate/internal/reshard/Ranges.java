package org.atomicshards.hibernate.internal.reshard;

import java.util.Collection;
import java.util.TreeSet;

/** Virtual shard numbers as compact text: {@code 0-3,8,10-11}. */
final class Ranges {

    private Ranges() {
    }

    static String of(Collection<Integer> buckets) {
        StringBuilder text = new StringBuilder();
        Integer start = null;
        Integer previous = null;
        for (int bucket : new TreeSet<>(buckets)) {
            if (previous != null && bucket == previous + 1) {
                previous = bucket;
                continue;
            }
            append(text, start, previous);
            start = bucket;
            previous = bucket;
        }
        append(text, start, previous);
        return text.toString();
    }

    private static void append(StringBuilder text, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (text.length() > 0) {
            text.append(',');
        }
        text.append(start);
        if (!start.equals(end)) {
            text.append('-').append(end);
        }
    }
}
