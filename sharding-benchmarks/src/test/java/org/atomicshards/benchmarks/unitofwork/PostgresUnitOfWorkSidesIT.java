package org.atomicshards.benchmarks.unitofwork;

import org.atomicshards.benchmarks.support.Backend;

/**
 * The unit-of-work sides on PostgreSQL (databases created and dropped on the server {@code PostgresShards} names):
 * each side does the unit of work, on the shard that owns the key. Runs with {@code -Preal-databases}.
 */
class PostgresUnitOfWorkSidesIT extends UnitOfWorkSidesTest {

    @Override
    Backend backend() {
        return Backend.POSTGRESQL;
    }
}
