/**
 * Merge cost and memory over eight large shards: JMH benchmarks (time and, with {@code -prof gc}, allocation per
 * operation) and a probe that measures the heap a merge retains.
 */
package org.atomicshards.benchmarks.merge;
