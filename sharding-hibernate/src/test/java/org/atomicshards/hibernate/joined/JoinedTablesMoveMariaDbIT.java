package org.atomicshards.hibernate.joined;

import org.atomicshards.testing.DatabaseKind;

class JoinedTablesMoveMariaDbIT extends JoinedTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
