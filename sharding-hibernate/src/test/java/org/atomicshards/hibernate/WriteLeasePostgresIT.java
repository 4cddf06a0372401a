package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteLeasePostgresIT extends WriteLeaseContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
