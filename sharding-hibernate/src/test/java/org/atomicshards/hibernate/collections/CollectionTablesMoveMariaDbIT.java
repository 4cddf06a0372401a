package org.atomicshards.hibernate.collections;

import org.atomicshards.testing.DatabaseKind;

class CollectionTablesMoveMariaDbIT extends CollectionTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
