package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class OnlineMovePostgresIT extends OnlineMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
