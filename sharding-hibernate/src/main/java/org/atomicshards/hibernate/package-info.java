/**
 * The public API of the Atomic Shards runtime: configure shards, run units of work routed by shard key, and run
 * queries across shards.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/user-guide.md">user guide</a>; every setting:
 * <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/configuration.md">configuration reference</a>.
 */
package org.atomicshards.hibernate;
