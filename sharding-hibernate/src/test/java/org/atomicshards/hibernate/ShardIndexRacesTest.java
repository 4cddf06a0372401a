package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexRacesTest extends ShardIndexRacesContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
