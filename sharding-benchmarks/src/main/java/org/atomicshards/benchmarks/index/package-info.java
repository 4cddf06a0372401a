/**
 * Look-ups through an index against the same query fanned out, and the cost an index adds to a unit of work.
 */
package org.atomicshards.benchmarks.index;
