package org.atomicshards.samples.spring.shop;

import org.atomicshards.testing.DatabaseKind;

/** The shop's repository and unit-of-work scenarios on four MariaDB shard databases. */
class ShopRepositoriesMariaDbIT extends ShopScenarios {

    @Override
    DatabaseKind databaseKind() {
        return DatabaseKind.MARIADB;
    }

    /** MariaDB's default collation ignores case; the searches sort names, so the shards use a binary one. */
    @Override
    String shardDatabaseOptions() {
        return "character set utf8mb4 collate utf8mb4_bin";
    }
}
