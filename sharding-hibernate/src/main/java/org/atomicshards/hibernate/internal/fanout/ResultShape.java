package org.atomicshards.hibernate.internal.fanout;

/** Turns the visible values of a merged row into the query's result object (a value, an array, a tuple, a DTO). */
@FunctionalInterface
interface ResultShape {

    Object build(Object[] visibleValues);

    /** The result of a merged row: {@code visible} indexes its {@code items} the query selects, in their order. */
    default Object build(Object[] items, int[] visible) {
        Object[] values = new Object[visible.length];
        for (int i = 0; i < visible.length; i++) {
            values[i] = items[visible[i]];
        }
        return build(values);
    }
}
