package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardingGapsContract} on embedded H2 databases. */
class ShardingGapsTest extends ShardingGapsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
