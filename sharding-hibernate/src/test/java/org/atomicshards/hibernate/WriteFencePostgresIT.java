package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteFencePostgresIT extends WriteFenceContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
