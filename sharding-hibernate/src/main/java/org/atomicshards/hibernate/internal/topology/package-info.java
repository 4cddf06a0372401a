/**
 * The run-time topology: adding and retiring physical shards ({@code ShardAdmin}), copying reference data to a new
 * shard, and following the topology other instances change (the periodic refresh from the catalog).
 */
package org.atomicshards.hibernate.internal.topology;
