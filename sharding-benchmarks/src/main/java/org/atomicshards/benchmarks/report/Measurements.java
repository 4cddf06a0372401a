package org.atomicshards.benchmarks.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The figures of one suite run by key, in the order they were measured. Not thread-safe. */
public final class Measurements {

    private final Map<String, Measurement> byKey = new LinkedHashMap<>();

    /** @throws IllegalArgumentException if {@code measurement}'s key was already measured in this run */
    public void add(Measurement measurement) {
        if (byKey.putIfAbsent(measurement.key(), measurement) != null) {
            throw new IllegalArgumentException("Measured twice in one run: " + measurement.key());
        }
    }

    public Optional<Measurement> find(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    public Iterable<Measurement> all() {
        return byKey.values();
    }

    public int size() {
        return byKey.size();
    }
}
