package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link AggregateResultsContract} on MariaDB: four shards against one database. */
class AggregateResultsMariaDbIT extends AggregateResultsContract {

    private static ClientFixture fixture;

    @BeforeAll
    static void create() {
        fixture = ClientFixture.create(DatabaseKind.MARIADB, 200);
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
    boolean acceptsBitwiseDistinct() {
        return false;
    }

    @Override
    boolean answersBitAndOverNoRowWithNull() {
        return false;
    }
}
