package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link JpaBootstrapTest} with the shards on the local MARIADB server (databases created and dropped by the test). */
class JpaBootstrapMariaDbIT extends JpaBootstrapTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
