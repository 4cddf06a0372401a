package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link PoliciesTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class PoliciesPostgresIT extends PoliciesTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
