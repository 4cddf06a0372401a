package org.atomicshards.hibernate.internal.selection;

import java.util.Locale;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.spi.UnitTopology;

/** The check shared by the policies that compute with the key's number (modulo, range, snowflake). */
final class IntegralKeys {

    private IntegralKeys() {
    }

    /** @throws ShardConfigurationException if the unit's key is not an integral number */
    static void require(UnitTopology unit, String policy) {
        if (!ShardKeys.isIntegral(unit.keyType())) {
            String name = policy.toUpperCase(Locale.ROOT);
            throw new ShardConfigurationException("Setting '" + unit.setting("policy") + "' has value '" + name
                    + "' but unit " + unit.unit().getName() + " has a " + unit.keyType().getSimpleName() + " key; "
                    + name + " needs an integral key. Fix: use HASH or CONSISTENT_HASH");
        }
    }
}
