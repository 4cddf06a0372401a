package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class SoakSplitMariaDbIT extends SoakSplitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
