package org.atomicshards.hibernate.collections;

import org.atomicshards.testing.DatabaseKind;

class CollectionTablesMovePostgresIT extends CollectionTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
