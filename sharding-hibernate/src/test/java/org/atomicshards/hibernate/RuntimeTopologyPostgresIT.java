package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link RuntimeTopologyTest} with the three shard databases on the local POSTGRESQL server. */
class RuntimeTopologyPostgresIT extends RuntimeTopologyTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
