package org.atomicshards.samples.spring.shop;

import org.atomicshards.testing.DatabaseKind;

/** The shop's repository and unit-of-work scenarios on four PostgreSQL shard databases. */
class ShopRepositoriesPostgresIT extends ShopScenarios {

    @Override
    DatabaseKind databaseKind() {
        return DatabaseKind.POSTGRESQL;
    }
}
