package org.atomicshards.hibernate.internal.selection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.spi.RecordedPlacements;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/** Placements kept in memory, for policies tested without a catalog. */
final class InMemoryPlacements implements RecordedPlacements {

    private final Map<Object, Integer> placed = new ConcurrentHashMap<>();

    @Override
    public int virtualShardOf(Object key) {
        return placed.getOrDefault(key, SelectionPolicy.NO_VIRTUAL_SHARD);
    }

    @Override
    public int place(Object key, int virtualShard) {
        return placed.computeIfAbsent(key, k -> virtualShard);
    }

    @Override
    public long count() {
        return placed.size();
    }
}
