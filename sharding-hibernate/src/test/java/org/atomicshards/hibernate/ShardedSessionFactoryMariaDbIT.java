package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardedSessionFactoryTest} with the shards on the local MARIADB server (databases created and dropped by the test). */
class ShardedSessionFactoryMariaDbIT extends ShardedSessionFactoryTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
