package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class RingMoveTest extends RingMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
