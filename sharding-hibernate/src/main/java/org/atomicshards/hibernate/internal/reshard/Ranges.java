package org.atomicshards.hibernate.internal.reshard;

import java.util.Collection;
import java.util.TreeSet;

/** Virtual shard numbers as compact text: {@code 0-3,8,10-11}. */
public final class Ranges {

    private Ranges() {
    }

    public static String of(Collection<Integer> buckets) {
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

    /** Whether {@code text} (as {@link #of} writes it) names {@code bucket}. */
    public static boolean contains(String text, int bucket) {
        if (text == null || text.isEmpty()) {
            return false;
        }
        for (String range : text.split(",")) {
            int dash = range.indexOf('-');
            int first = Integer.parseInt(range.substring(0, dash < 0 ? range.length() : dash).trim());
            int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1).trim());
            if (bucket >= first && bucket <= last) {
                return true;
            }
        }
        return false;
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
