package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexRacesMariaDbIT extends ShardIndexRacesContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
