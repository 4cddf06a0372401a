package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteLeaseMariaDbIT extends WriteLeaseContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
