package org.atomicshards.cli.internal;

import java.util.Set;
import java.util.TreeSet;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a list of virtual shard numbers as an operator writes it: numbers and inclusive ranges separated by commas,
 * {@code 0-3,8,10-11}. Whether each exists is checked by the runtime against the map.
 */
public final class VirtualShardList implements ITypeConverter<Set<Integer>> {

    /** The most virtual shards one list may name (the runtime allows at most this many virtual shards). */
    private static final int MAX = 1 << 20;

    @Override
    public Set<Integer> convert(String value) {
        Set<Integer> numbers = new TreeSet<>();
        for (String part : value.split(",")) {
            String item = part.strip();
            if (item.isEmpty()) {
                throw invalid(value, "an empty item");
            }
            int dash = item.indexOf('-', 1);
            int from = number(value, dash < 0 ? item : item.substring(0, dash));
            int to = dash < 0 ? from : number(value, item.substring(dash + 1));
            if (to < from) {
                throw invalid(value, "the range " + item + " ends before it starts");
            }
            if (to - from >= MAX || numbers.size() + (to - from) >= MAX) {
                throw invalid(value, "more than " + MAX + " virtual shards");
            }
            for (int n = from; n <= to; n++) {
                numbers.add(n);
            }
        }
        return numbers;
    }

    private static int number(String value, String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n < 0) {
                throw invalid(value, "the negative number " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw invalid(value, "'" + text.strip() + "', which is not a number");
        }
    }

    private static TypeConversionException invalid(String value, String problem) {
        return new TypeConversionException("'" + value + "' has " + problem + ". Write virtual shard numbers and "
                + "ranges separated by commas, e.g. 0-3,8");
    }
}
