package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class OnlineMoveMariaDbIT extends OnlineMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
