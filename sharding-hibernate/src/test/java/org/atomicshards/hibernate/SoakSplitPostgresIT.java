package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class SoakSplitPostgresIT extends SoakSplitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
