package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ProxiedLeasePostgresIT extends ProxiedLeaseContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
