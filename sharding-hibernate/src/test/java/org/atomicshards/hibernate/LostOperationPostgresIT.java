package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class LostOperationPostgresIT extends LostOperationContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
