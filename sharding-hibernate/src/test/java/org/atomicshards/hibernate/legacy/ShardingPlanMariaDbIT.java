package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingPlanContract} on the local MARIADB server. */
class ShardingPlanMariaDbIT extends ShardingPlanContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
