package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardMigrationsContract} on the local MARIADB server. */
class ShardMigrationsMariaDbIT extends ShardMigrationsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
