package org.atomicshards.hibernate.spi;

/**
 * The placements recorded in the shard directory for one unit: which virtual shard each unit (key) was put on.
 * Reads come from the directory's memory (a miss reads the catalog once: another instance may have placed the key);
 * {@link #place} writes through to the catalog first. Thread-safe.
 */
public interface RecordedPlacements {

    /**
     * The virtual shard recorded for {@code key}, or {@link SelectionPolicy#NO_VIRTUAL_SHARD} if it was never placed.
     */
    int virtualShardOf(Object key);

    /**
     * Records that the unit with {@code key} lives on {@code virtualShard}, unless a placement exists already (the
     * first writer wins, across instances).
     *
     * @return the virtual shard recorded for the key afterwards
     * @throws org.atomicshards.hibernate.CatalogException if the catalog cannot be written
     */
    int place(Object key, int virtualShard);

    /** How many units this instance knows to be placed (all recorded at boot, plus those placed or read since). */
    long count();
}
