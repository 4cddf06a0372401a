package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingGapsContract} on the local MARIADB server. */
class ShardingGapsMariaDbIT extends ShardingGapsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
