package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class RingMovePostgresIT extends RingMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
