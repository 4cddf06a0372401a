package org.atomicshards.hibernate.internal.metrics;

import java.util.Arrays;

/**
 * The heaviest keys of one virtual shard, by the space-saving algorithm (Metwally et al.) over a handful of counters:
 * a key seen in at least {@code 1/capacity} of the samples is always among them, and {@code count - error} is a
 * lower bound of how often it was seen. Fed with a sample of the traffic; synchronized (sampled calls only).
 */
final class KeySketch {

    private final Object[] keys;
    private final long[] counts;
    private final long[] errors;
    private long samples;

    KeySketch(int capacity) {
        keys = new Object[capacity];
        counts = new long[capacity];
        errors = new long[capacity];
    }

    synchronized void add(Object key) {
        samples++;
        int smallest = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == null) {
                keys[i] = key;
                counts[i] = 1;
                return;
            }
            if (keys[i].equals(key)) {
                counts[i]++;
                return;
            }
            if (counts[i] < counts[smallest]) {
                smallest = i;
            }
        }
        errors[smallest] = counts[smallest];
        keys[smallest] = key;
        counts[smallest]++;
    }

    /** The key with the largest guaranteed count, with that count and the samples seen; null if none. */
    synchronized Top top() {
        int best = -1;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && (best < 0 || counts[i] - errors[i] > counts[best] - errors[best])) {
                best = i;
            }
        }
        return best < 0 ? null : new Top(keys[best], counts[best] - errors[best], samples);
    }

    synchronized void clear() {
        Arrays.fill(keys, null);
        Arrays.fill(counts, 0);
        Arrays.fill(errors, 0);
        samples = 0;
    }

    /** @param atLeast a lower bound of the samples that were this key */
    record Top(Object key, long atLeast, long samples) {
    }
}
