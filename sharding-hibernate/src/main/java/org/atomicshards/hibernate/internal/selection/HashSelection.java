package org.atomicshards.hibernate.internal.selection;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.StableHash;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.UnitTopology;

/** {@code hash}: a stable, well-mixed 64-bit hash of the key's value ({@link StableHash}) modulo the virtual shards. */
public final class HashSelection extends OptionlessSelection {

    public static final String NAME = "hash";

    public HashSelection() {
        super(NAME);
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return virtualShardOf(key, unit.directory());
    }

    /** As the default, with the directory asked for once: this is every HASH unit's routing path. */
    @Override
    public ShardId shardOf(Object key, UnitTopology unit) {
        ShardDirectory directory = unit.directory();
        return directory.shardOf(virtualShardOf(key, directory));
    }

    private static int virtualShardOf(Object key, ShardDirectory directory) {
        return StableHash.bucket(StableHash.of(key), directory.virtualShards());
    }
}
