package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link DistinctOrderByContract} on MariaDB: four shards against one database. */
class DistinctOrderByMariaDbIT extends DistinctOrderByContract {

    private static ClientFixture fixture;

    @BeforeAll
    static void create() {
        fixture = ClientFixture.create(DatabaseKind.MARIADB, 120);
    }

    @AfterAll
    static void close() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Override
    ClientFixture fixture() {
        return fixture;
    }
}
