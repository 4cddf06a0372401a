package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link LegacyToFourShardsContract} on the local POSTGRESQL server. */
class LegacyToFourShardsPostgresIT extends LegacyToFourShardsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
