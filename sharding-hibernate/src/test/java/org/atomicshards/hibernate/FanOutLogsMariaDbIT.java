package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link FanOutLogsTest} with the shards on the local MariaDB server (databases created and dropped by the test). */
class FanOutLogsMariaDbIT extends FanOutLogsTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
