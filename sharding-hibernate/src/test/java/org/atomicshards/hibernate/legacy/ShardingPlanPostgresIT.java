package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingPlanContract} on the local POSTGRESQL server. */
class ShardingPlanPostgresIT extends ShardingPlanContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
