package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class LostOperationTest extends LostOperationContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
