/** Fan-out latency across sixteen shards with a simulated round trip per statement. */
package org.atomicshards.benchmarks.fanout;
