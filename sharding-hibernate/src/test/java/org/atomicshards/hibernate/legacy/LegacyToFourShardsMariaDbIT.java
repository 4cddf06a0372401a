package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link LegacyToFourShardsContract} on the local MARIADB server. */
class LegacyToFourShardsMariaDbIT extends LegacyToFourShardsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
