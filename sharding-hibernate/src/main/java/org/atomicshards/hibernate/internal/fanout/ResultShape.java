package org.atomicshards.hibernate.internal.fanout;

/** Turns the visible values of a merged row into the query's result object (a value, an array, a tuple, a DTO). */
@FunctionalInterface
interface ResultShape {

    Object build(Object[] visibleValues);
}
