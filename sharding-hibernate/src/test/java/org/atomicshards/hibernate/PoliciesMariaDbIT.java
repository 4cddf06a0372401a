package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link PoliciesTest} with the shards on the local MARIADB server (databases created and dropped by the test). */
class PoliciesMariaDbIT extends PoliciesTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
