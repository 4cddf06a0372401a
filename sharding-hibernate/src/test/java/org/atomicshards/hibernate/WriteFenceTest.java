package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class WriteFenceTest extends WriteFenceContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
