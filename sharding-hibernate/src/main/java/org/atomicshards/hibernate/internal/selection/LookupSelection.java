package org.atomicshards.hibernate.internal.selection;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * {@code lookup}: explicit placements recorded in the shard directory (e.g. a big tenant pinned to its own shard). A
 * unit is placed with {@code ShardedSessionFactory.place}, or by persisting its root in a session of a shard; a new
 * key is never placed implicitly.
 */
public final class LookupSelection extends OptionlessSelection {

    public static final String NAME = "lookup";

    public LookupSelection() {
        super(NAME);
    }

    @Override
    public boolean recordsPlacements() {
        return true;
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return unit.placements().virtualShardOf(key);
    }

    @Override
    public ShardId placeNew(Object key, UnitTopology unit) {
        ShardId existing = shardOf(key, unit);
        if (existing != null) {
            return existing;
        }
        String root = unit.unit().getName();
        throw new UnroutableKeyException("Unit " + root + " uses a LOOKUP policy and key " + key
                + " has no placement yet. Fix: place it first with ShardedSessionFactory.place(" + root
                + ".class, key, shard)");
    }
}
