package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link EmbeddedKeysTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class EmbeddedKeysPostgresIT extends EmbeddedKeysTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
