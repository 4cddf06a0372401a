package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteLeaseTest extends WriteLeaseContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
