package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link LegacyToFourShardsContract} on embedded H2 databases. */
class LegacyToFourShardsTest extends LegacyToFourShardsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
