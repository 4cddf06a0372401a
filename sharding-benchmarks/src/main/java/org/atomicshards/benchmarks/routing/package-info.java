/** Routing throughput: key to physical shard per second for each selection policy. */
package org.atomicshards.benchmarks.routing;
