package org.atomicshards.hibernate.internal.routing;

import java.util.List;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.spi.RecordedPlacements;
import org.atomicshards.hibernate.spi.RingTransition;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.UnitTopology;

/** The topology in force of one unit, answered by the shard directory's cache (and the catalog where it says so). */
public final class DirectoryUnitTopology implements UnitTopology, RecordedPlacements {

    private final Class<?> unit;
    private final Class<?> keyType;
    private final String unitName;
    private final CachedShardDirectory directory;
    private volatile boolean ringRecorded;
    /** The members read last, with the ring generation read before them: routing a key then skips the map. */
    private volatile RingMembers lastRing;

    private record RingMembers(int generation, List<ShardId> members) {
    }

    public DirectoryUnitTopology(Class<?> unit, Class<?> keyType, CachedShardDirectory directory) {
        this.unit = unit;
        this.keyType = keyType;
        this.unitName = unit.getName();
        this.directory = directory;
    }

    @Override
    public Class<?> unit() {
        return unit;
    }

    @Override
    public Class<?> keyType() {
        return keyType;
    }

    @Override
    public ShardDirectory directory() {
        return directory;
    }

    /**
     * The members in force in this instance: recorded in the catalog on first use, then the directory's list, which
     * stays the same object until the ring changes (a member added or removed here, or by another instance and taken
     * over at a refresh), so a policy may cache what it built from it by identity.
     */
    @Override
    public List<ShardId> ringMembers() {
        if (!ringRecorded) {
            synchronized (this) {
                if (!ringRecorded) {
                    directory.ringMembers(unitName, directory.owningShards());
                    ringRecorded = true;
                }
            }
        }
        int generation = directory.ringGeneration();
        RingMembers last = lastRing;
        if (last != null && last.generation() == generation) {
            return last.members();
        }
        List<ShardId> members = directory.currentRingMembers(unitName);
        lastRing = new RingMembers(generation, members);
        return members;
    }

    @Override
    public RingTransition ringTransition() {
        if (!ringRecorded) {
            ringMembers(); // the ring's change in progress is read with its members on first use
        }
        return directory.ringTransition(unitName);
    }

    @Override
    public RecordedPlacements placements() {
        return this;
    }

    @Override
    public int virtualShardOf(Object key) {
        Integer v = directory.placement(unitName, ShardKeys.text(key));
        return v == null ? SelectionPolicy.NO_VIRTUAL_SHARD : v;
    }

    @Override
    public int place(Object key, int virtualShard) {
        return directory.place(unitName, ShardKeys.text(key), virtualShard);
    }

    @Override
    public long count() {
        return directory.placementCount(unitName);
    }

    @Override
    public String toString() {
        return "Topology[" + unitName + ", map version " + directory.version() + "]";
    }
}
