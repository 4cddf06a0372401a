package org.atomicshards.hibernate;

import org.atomicshards.hibernate.internal.index.IndexFaults;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * The set-up of the index contracts: three shard databases of one kind for the class, and a factory of the index model
 * with a short claim timeout for each test (any index fault removed after it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IndexFactoryContract {

    static final long CLAIM_TIMEOUT = 2_000;

    protected ShardDatabases dbs;
    protected ShardedSessionFactory shards;

    protected abstract DatabaseKind kind();

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 3);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @BeforeEach
    void build() {
        shards = IndexFixtures.builder(dbs, CLAIM_TIMEOUT).build();
    }

    @AfterEach
    void close() {
        IndexFaults.install(null);
        shards.close();
    }
}
