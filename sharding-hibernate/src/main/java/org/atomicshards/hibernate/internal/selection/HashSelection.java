package org.atomicshards.hibernate.internal.selection;

import org.atomicshards.hibernate.internal.routing.StableHash;
import org.atomicshards.hibernate.spi.UnitTopology;

/** {@code hash}: a stable, well-mixed 64-bit hash of the key's value ({@link StableHash}) modulo the virtual shards. */
public final class HashSelection extends OptionlessSelection {

    public static final String NAME = "hash";

    public HashSelection() {
        super(NAME);
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return (int) Long.remainderUnsigned(StableHash.of(key), unit.directory().virtualShards());
    }
}
