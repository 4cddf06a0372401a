/**
 * Meters and traffic counts of a sharded factory: {@link org.atomicshards.hibernate.internal.metrics.ShardMetrics}
 * (no-op, or Micrometer when a registry is configured; only {@code MicrometerShardMetrics} touches Micrometer types)
 * and the per-virtual-shard traffic behind the hot-spot report.
 */
package org.atomicshards.hibernate.internal.metrics;
