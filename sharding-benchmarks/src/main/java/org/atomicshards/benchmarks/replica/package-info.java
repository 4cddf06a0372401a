/**
 * Reads from replicas on PostgreSQL: fan-out throughput from primaries only against primaries plus one streaming
 * standby each, and the cost of the lag check run before every replica read.
 */
package org.atomicshards.benchmarks.replica;
