package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link FanOutLogsTest} with the shards on the local PostgreSQL server (databases created and dropped by the test). */
class FanOutLogsPostgresIT extends FanOutLogsTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
