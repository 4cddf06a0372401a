/**
 * The benchmark suite's entry point ({@link org.atomicshards.benchmarks.BenchmarkSuite}), the JMH groups it runs
 * and the catalogue of comparisons its one result table shows.
 */
package org.atomicshards.benchmarks;
