/**
 * Scale in the shard count: boot time and heap per idle shard ({@link org.atomicshards.benchmarks.scale.ScaleProbe},
 * a JVM of its own per shard count) and fan-out latency ({@link org.atomicshards.benchmarks.scale.ScaleFanOutBenchmark})
 * at 4, 16, 64 and 256 in-memory H2 shards, with the library's default pool and fan-out settings.
 */
package org.atomicshards.benchmarks.scale;
