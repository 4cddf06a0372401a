/**
 * The annotations of Atomic Shards: {@link org.atomicshards.annotations.AtomicUnit} on the root entity of a
 * group of entities stored together, {@link org.atomicshards.annotations.ShardKey} on the attribute carrying the
 * root's key, {@link org.atomicshards.annotations.ReferenceData} on entities copied to every shard, and
 * {@link org.atomicshards.annotations.ShardIndex} on an attribute to find units by (and keep unique across shards).
 *
 * <p>No dependencies. Retained at run time, so the runtime can read them from classes compiled without the
 * annotation processor.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/user-guide.md#units-and-keys">units and keys</a>; the rules the processor checks:
 * <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/build-time-checks.md#message-codes">message codes</a>.
 */
package org.atomicshards.annotations;
