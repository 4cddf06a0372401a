package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

class IndexedPruningMariaDbIT extends IndexedPruningContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
