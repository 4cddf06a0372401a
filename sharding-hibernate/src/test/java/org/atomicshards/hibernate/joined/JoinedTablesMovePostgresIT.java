package org.atomicshards.hibernate.joined;

import org.atomicshards.testing.DatabaseKind;

class JoinedTablesMovePostgresIT extends JoinedTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
