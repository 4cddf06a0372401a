package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexRacesPostgresIT extends ShardIndexRacesContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
