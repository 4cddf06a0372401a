package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MoveUnitMariaDbIT extends MoveUnitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
