package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * A unit's key checked and routed once, so that the traffic count and the ownership fence read the same answer
 * instead of routing the key again.
 *
 * @param key          the checked key
 * @param virtualShard its virtual shard, or {@link SelectionPolicy#NO_VIRTUAL_SHARD}
 * @param shard        the shard owning it
 * @param mapVersion   the map version in force before it was routed (what a ring unit's fence compares)
 */
record RoutedKey(Object key, int virtualShard, ShardId shard, int mapVersion) {
}
