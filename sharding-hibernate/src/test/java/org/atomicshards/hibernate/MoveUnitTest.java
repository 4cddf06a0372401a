package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class MoveUnitTest extends MoveUnitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
