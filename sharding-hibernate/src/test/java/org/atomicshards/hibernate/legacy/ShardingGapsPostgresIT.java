package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingGapsContract} on the local POSTGRESQL server. */
class ShardingGapsPostgresIT extends ShardingGapsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
