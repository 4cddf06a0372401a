package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link HostileKeysTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class HostileKeysPostgresIT extends HostileKeysTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
