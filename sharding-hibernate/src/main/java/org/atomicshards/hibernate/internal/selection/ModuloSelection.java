package org.atomicshards.hibernate.internal.selection;

import java.math.BigInteger;

import org.atomicshards.hibernate.spi.UnitTopology;

/** {@code modulo}: an integral key modulo the virtual shards (seed 004's "ID hash"); consecutive keys rotate. */
public final class ModuloSelection extends OptionlessSelection {

    public static final String NAME = "modulo";

    public ModuloSelection() {
        super(NAME);
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
}
