package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link Seed004ScenariosTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class Seed004ScenariosPostgresIT extends Seed004ScenariosTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
