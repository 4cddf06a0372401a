package org.atomicshards.hibernate.legacy;

import org.atomicshards.testing.DatabaseKind;

/** {@link AdoptionContract} on embedded H2 databases. */
class AdoptionTest extends AdoptionContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
