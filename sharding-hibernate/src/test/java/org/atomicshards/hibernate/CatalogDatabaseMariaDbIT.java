package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link CatalogDatabaseTest} with the catalog and the shards on the local MARIADB server. */
class CatalogDatabaseMariaDbIT extends CatalogDatabaseTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
