package org.atomicshards.hibernate.internal.metrics;

/** A unit's key, as the hot-key sketches count it. */
record UnitKey(String unit, Object key) {
}
