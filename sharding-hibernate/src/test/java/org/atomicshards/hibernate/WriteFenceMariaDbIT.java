package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteFenceMariaDbIT extends WriteFenceContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
