package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardMigrationsContract} on embedded H2 databases. */
class ShardMigrationsTest extends ShardMigrationsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
