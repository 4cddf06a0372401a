package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link JpaBootstrapTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class JpaBootstrapPostgresIT extends JpaBootstrapTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
