package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ProxiedLeaseMariaDbIT extends ProxiedLeaseContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
