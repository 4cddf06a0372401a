package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MovedUnitReadsMariaDbIT extends MovedUnitReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
