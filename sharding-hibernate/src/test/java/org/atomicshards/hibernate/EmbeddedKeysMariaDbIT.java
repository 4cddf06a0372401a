package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link EmbeddedKeysTest} with the shards on the local MARIADB server (databases created and dropped by the test). */
class EmbeddedKeysMariaDbIT extends EmbeddedKeysTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
