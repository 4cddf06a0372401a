package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

/** {@link CatalogSchemaTest} with the catalog in a database on the local MARIADB server. */
class CatalogSchemaMariaDbIT extends CatalogSchemaTest {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }
}
