package org.atomicshards.samples.spring.shop;

import org.atomicshards.testing.DatabaseKind;

/** The shop's repository and unit-of-work scenarios on four MariaDB shard databases. */
class ShopRepositoriesMariaDbIT extends ShopScenarios {

    @Override
    DatabaseKind databaseKind() {
        return DatabaseKind.MARIADB;
    }
}
