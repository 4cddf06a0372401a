package org.atomicshards.hibernate.internal.directory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The databases whose catalog scripts ship in the jar, under
 * {@code META-INF/atomic-shards/catalog/<folder>/V<n>__<description>.sql}, and whose own locks serialise the boot of
 * several instances.
 */
public enum CatalogDialect {

    /** H2 (embedded, file or server mode): a row lock on {@code as_catalog_lock}, plus a JVM lock per URL. */
    H2("h2"),
    /** PostgreSQL: a session-level advisory lock ({@code pg_advisory_lock}). */
    POSTGRESQL("postgresql"),
    /** MariaDB and MySQL: a named lock ({@code GET_LOCK}) held by the connection. */
    MARIADB("mariadb");

    private final String folder;

    CatalogDialect(String folder) {
        this.folder = folder;
    }

    /** The folder of this database's scripts inside {@code META-INF/atomic-shards/catalog/}. */
    public String folder() {
        return folder;
    }

    /** The classpath resource of one script, e.g. {@code META-INF/atomic-shards/catalog/h2/V1__catalog.sql}. */
    public String resource(String fileName) {
        return "META-INF/atomic-shards/catalog/" + folder + "/" + fileName;
    }

    /** The dialect of the database behind {@code connection}; empty for a database without scripts. */
    public static Optional<CatalogDialect> of(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("h2")) {
            return Optional.of(H2);
        }
        if (product.contains("postgresql")) {
            return Optional.of(POSTGRESQL);
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return Optional.of(MARIADB);
        }
        return Optional.empty();
    }
}
