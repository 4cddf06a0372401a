package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardMigrationsContract} on the local POSTGRESQL server. */
class ShardMigrationsPostgresIT extends ShardMigrationsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
