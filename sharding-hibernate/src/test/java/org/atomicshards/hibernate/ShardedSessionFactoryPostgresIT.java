package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link ShardedSessionFactoryTest} with the shards on the local POSTGRESQL server (databases created and dropped by the test). */
class ShardedSessionFactoryPostgresIT extends ShardedSessionFactoryTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
