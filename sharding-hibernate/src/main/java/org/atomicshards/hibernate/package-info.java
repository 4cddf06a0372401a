/**
 * The public API of the Atomic Shards runtime: configure shards, run units of work routed by shard key, and run
 * queries across shards.
 */
package org.atomicshards.hibernate;
