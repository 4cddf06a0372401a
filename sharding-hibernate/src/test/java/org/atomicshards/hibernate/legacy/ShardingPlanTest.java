package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingPlanContract} on embedded H2 databases. */
class ShardingPlanTest extends ShardingPlanContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
