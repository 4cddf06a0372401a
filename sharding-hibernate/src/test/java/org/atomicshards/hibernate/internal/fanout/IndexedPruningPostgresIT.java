package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

class IndexedPruningPostgresIT extends IndexedPruningContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
