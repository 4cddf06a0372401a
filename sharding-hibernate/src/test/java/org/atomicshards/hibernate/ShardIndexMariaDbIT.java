package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexMariaDbIT extends ShardIndexContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
