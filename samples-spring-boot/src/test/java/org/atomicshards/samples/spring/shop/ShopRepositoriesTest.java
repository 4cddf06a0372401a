package org.atomicshards.samples.spring.shop;

import org.atomicshards.testing.DatabaseKind;

/** The shop's repository and unit-of-work scenarios on four embedded H2 shards. */
class ShopRepositoriesTest extends ShopScenarios {

    @Override
    DatabaseKind databaseKind() {
        return DatabaseKind.H2;
    }
}
