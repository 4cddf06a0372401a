package org.atomicshards.hibernate.internal.routing;

import java.util.List;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.spi.RecordedPlacements;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.UnitTopology;

/** The topology in force of one unit, answered by the shard directory's cache (and the catalog where it says so). */
public final class DirectoryUnitTopology implements UnitTopology, RecordedPlacements {

    private final Class<?> unit;
    private final Class<?> keyType;
    private final String unitName;
    private final CachedShardDirectory directory;
    private volatile List<ShardId> ringMembers;

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

    /** Read (and on first use recorded) in the catalog once, then kept: the same list object on every call. */
    @Override
    public List<ShardId> ringMembers() {
        List<ShardId> members = ringMembers;
        if (members == null) {
            synchronized (this) {
                members = ringMembers;
                if (members == null) {
                    members = List.copyOf(directory.ringMembers(unitName, directory.owningShards()));
                    ringMembers = members;
                }
            }
        }
        return members;
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
