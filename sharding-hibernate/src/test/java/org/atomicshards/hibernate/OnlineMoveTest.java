package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class OnlineMoveTest extends OnlineMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
