package org.atomicshards.hibernate.internal.metrics;

import java.util.Arrays;

/**
 * The heaviest keys of one virtual shard, by the space-saving algorithm (Metwally et al.) over a handful of counters:
 * a key seen in at least {@code 1/capacity} of the samples is always among them, and {@code count - error} is a
 * lower bound of how often it was seen. Fed with a sample of the traffic; synchronized (sampled calls only).
 *
 * <p>Each counter keeps its key's hash code, and a sampled key is compared with a counter's key only when the hash
 * codes agree: the counters' keys are old objects, rarely in the CPU's caches, and nearly every comparison is a miss.
 */
final class KeySketch {

    private final Object[] keys;
    private final int[] hashes;
    private final long[] counts;
    private final long[] errors;
    private long samples;

    KeySketch(int capacity) {
        keys = new Object[capacity];
        hashes = new int[capacity];
        counts = new long[capacity];
        errors = new long[capacity];
    }

    synchronized void add(Object key) {
        samples++;
        int hash = key.hashCode();
        int smallest = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == null) {
                keys[i] = key;
                hashes[i] = hash;
                counts[i] = 1;
                return;
            }
            if (hashes[i] == hash && keys[i].equals(key)) {
                counts[i]++;
                return;
            }
            if (counts[i] < counts[smallest]) {
                smallest = i;
            }
        }
        errors[smallest] = counts[smallest];
        keys[smallest] = key;
        hashes[smallest] = hash;
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
