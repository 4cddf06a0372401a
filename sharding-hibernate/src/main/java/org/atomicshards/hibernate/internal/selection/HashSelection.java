package org.atomicshards.hibernate.internal.selection;

import org.atomicshards.hibernate.internal.routing.StableHash;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/** {@code hash}: a stable, well-mixed 64-bit hash of the key's value ({@link StableHash}) modulo the virtual shards. */
public final class HashSelection implements SelectionPolicy {

    public static final String NAME = "hash";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return this;
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return (int) Long.remainderUnsigned(StableHash.of(key), unit.directory().virtualShards());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HashSelection;
    }

    @Override
    public int hashCode() {
        return NAME.hashCode();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
