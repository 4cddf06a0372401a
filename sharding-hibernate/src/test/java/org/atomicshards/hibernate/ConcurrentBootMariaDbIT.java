package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link ConcurrentBootTest} with four instances, the catalog and the shards on the local MARIADB server. */
class ConcurrentBootMariaDbIT extends ConcurrentBootTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected int instances() {
        return 4;
    }
}
