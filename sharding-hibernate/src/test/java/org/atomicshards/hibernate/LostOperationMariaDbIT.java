package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class LostOperationMariaDbIT extends LostOperationContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
