/**
 * Online moves between two PostgreSQL shards (the suite group {@code pg-move}): a one-shot operation, so not a JMH
 * loop but {@link org.atomicshards.benchmarks.move.MoveProbe}, a plain runner in a JVM of its own that repeats the
 * move there and back and reports the mean and spread of its throughput, the application's throughput during a move
 * against before it, and the write pause per batch.
 */
package org.atomicshards.benchmarks.move;
