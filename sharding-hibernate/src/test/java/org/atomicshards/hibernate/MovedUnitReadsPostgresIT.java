package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MovedUnitReadsPostgresIT extends MovedUnitReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
