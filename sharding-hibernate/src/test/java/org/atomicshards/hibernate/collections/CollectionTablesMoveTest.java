package org.atomicshards.hibernate.collections;

import org.atomicshards.testing.DatabaseKind;

class CollectionTablesMoveTest extends CollectionTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
