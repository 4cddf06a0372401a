package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MoveUnitPostgresIT extends MoveUnitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
