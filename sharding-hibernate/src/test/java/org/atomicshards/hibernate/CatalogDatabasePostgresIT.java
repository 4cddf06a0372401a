package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link CatalogDatabaseTest} with the catalog and the shards on the local POSTGRESQL server. */
class CatalogDatabasePostgresIT extends CatalogDatabaseTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }
}
