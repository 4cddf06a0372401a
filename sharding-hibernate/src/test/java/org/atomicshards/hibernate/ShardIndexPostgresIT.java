package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexPostgresIT extends ShardIndexContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
