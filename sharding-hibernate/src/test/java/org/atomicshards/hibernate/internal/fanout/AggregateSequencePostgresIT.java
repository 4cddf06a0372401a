package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link AggregateSequenceContract} on PostgreSQL: four shards against one database, a factory of its own. */
class AggregateSequencePostgresIT extends AggregateSequenceContract {

    private static ClientFixture fixture;

    @BeforeAll
    static void create() {
        fixture = ClientFixture.create(DatabaseKind.POSTGRESQL, CLIENTS);
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

    @Override
    int cases() {
        return 200;
    }
}
