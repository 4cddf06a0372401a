package org.atomicshards.hibernate;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/**
 * {@link CatalogOutageTest} with the catalog in a PostgreSQL database (created and dropped by the test) reached
 * through a loopback proxy that refuses connections and resets the open ones for 10 s during the workload.
 */
class CatalogOutagePostgresIT extends CatalogOutageTest {

    private static final Pattern HOST_PORT_DATABASE = Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)/([^?;]+).*");

    private ShardDatabases catalogDatabase;
    private ShardDatabase catalog;

    @Override
    protected void startCatalogDatabase() throws Exception {
        catalogDatabase = ShardDatabases.create(DatabaseKind.POSTGRESQL, 1);
        catalog = catalogDatabase.shards().get(0);
        Matcher url = HOST_PORT_DATABASE.matcher(catalog.url());
        if (!url.matches()) {
            throw new IllegalStateException("Unexpected PostgreSQL URL " + catalog.url());
        }
        proxy = new TcpProxy(url.group(1), Integer.parseInt(url.group(2)));
    }

    private String database() {
        Matcher url = HOST_PORT_DATABASE.matcher(catalog.url());
        url.matches();
        return url.group(3);
    }

    @Override
    protected String catalogUrl() {
        return catalogShownAs() + "?password=hunter2secret";
    }

    @Override
    protected String catalogShownAs() {
        return "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + database();
    }

    @Override
    protected String catalogUser() {
        return catalog.user();
    }

    /**
     * None as a setting: the password is the one in {@link #catalogUrl()}, which the test server (trust
     * authentication on loopback) accepts, and which no message may show.
     */
    @Override
    protected String catalogPassword() {
        return null;
    }

    @Override
    protected void dropCatalogDatabase() throws Exception {
        try {
            proxy.close();
        } finally {
            catalogDatabase.close();
        }
    }

    @Override
    protected long outageMillis() {
        return 10_000;
    }
}
