package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MovedUnitReadsTest extends MovedUnitReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
