package org.atomicshards.hibernate.internal.routing;

import java.util.Map;

/**
 * An immutable map from classes to values, found by identity in a small open-addressed array. For look-ups made at
 * every write of every entity (its route): a {@link ClassValue} reads the class's value map, its cache array, the
 * entry and the class value's version one after the other, lines that the database's work between two units of work
 * has evicted; this reads the class's header, one key array and one value array.
 *
 * @param <V> the values
 */
final class ClassTable<V> {

    private final Class<?>[] keys;
    private final Object[] values;
    private final int mask;

    ClassTable(Map<Class<?>, ? extends V> entries) {
        // a power of two at least twice the entries: at most half full, so every probe ends at an empty slot
        int capacity = Integer.highestOneBit(Math.max(2, entries.size() * 2) - 1) << 1;
        keys = new Class<?>[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        entries.forEach((type, value) -> {
            int i = home(type);
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = type;
            values[i] = value;
        });
    }

    /** The value of exactly {@code type} (not of a superclass), or null if it has none. */
    @SuppressWarnings("unchecked")
    V get(Class<?> type) {
        for (int i = home(type); ; i = (i + 1) & mask) {
            Class<?> key = keys[i];
            if (key == type) {
                return (V) values[i];
            }
            if (key == null) {
                return null;
            }
        }
    }

    private int home(Class<?> type) {
        int hash = System.identityHashCode(type);
        return (hash ^ (hash >>> 16)) & mask;
    }
}
