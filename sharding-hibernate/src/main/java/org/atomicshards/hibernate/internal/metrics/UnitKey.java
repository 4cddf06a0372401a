package org.atomicshards.hibernate.internal.metrics;

/**
 * A unit's key, as the hot-key sketches count it. Equality compares the key first: a sketch compares every sampled
 * key with each of its counters, almost always for a miss, and the unit names are usually the same string.
 */
record UnitKey(String unit, Object key) {

    @Override
    public boolean equals(Object other) {
        return other instanceof UnitKey that && key.equals(that.key) && unit.equals(that.unit);
    }

    @Override
    public int hashCode() {
        return 31 * unit.hashCode() + key.hashCode();
    }
}
