package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class RingMoveMariaDbIT extends RingMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
