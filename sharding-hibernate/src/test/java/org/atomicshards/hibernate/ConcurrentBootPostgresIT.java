package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link ConcurrentBootTest} with four instances, the catalog and the shards on the local POSTGRESQL server. */
class ConcurrentBootPostgresIT extends ConcurrentBootTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected int instances() {
        return 4;
    }
}
