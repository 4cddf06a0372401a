package org.atomicshards.hibernate.internal.selection;

import java.math.BigInteger;

import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/** {@code modulo}: an integral key modulo the virtual shards (seed 004's "ID hash"); consecutive keys rotate. */
public final class ModuloSelection implements SelectionPolicy {

    public static final String NAME = "modulo";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        return this;
    }

    @Override
    public void prepare(UnitTopology unit) {
        IntegralKeys.require(unit, NAME);
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        int count = unit.directory().virtualShards();
        if (key instanceof BigInteger b) {
            return b.mod(BigInteger.valueOf(count)).intValue();
        }
        return (int) Math.floorMod(((Number) key).longValue(), (long) count);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModuloSelection;
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
