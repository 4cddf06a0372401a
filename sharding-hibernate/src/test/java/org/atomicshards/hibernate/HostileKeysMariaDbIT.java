package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link HostileKeysTest} with the shards on the local MARIADB server (databases created and dropped by the test). */
class HostileKeysMariaDbIT extends HostileKeysTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
