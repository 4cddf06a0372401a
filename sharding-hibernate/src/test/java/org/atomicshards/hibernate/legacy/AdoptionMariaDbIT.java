package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link AdoptionContract} on the local MARIADB server. */
class AdoptionMariaDbIT extends AdoptionContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
