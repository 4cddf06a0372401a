package org.atomicshards.hibernate.joined;

import org.atomicshards.testing.DatabaseKind;

class JoinedTablesMoveTest extends JoinedTablesMoveContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
