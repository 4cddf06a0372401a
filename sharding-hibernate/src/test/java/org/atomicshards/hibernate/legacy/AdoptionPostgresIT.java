package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link AdoptionContract} on the local POSTGRESQL server. */
class AdoptionPostgresIT extends AdoptionContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
