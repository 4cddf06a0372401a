package org.atomicshards.testing;

/**
 * Where test shard databases are created. The servers' admin URLs can be overridden with the system properties
 * {@code atomicshards.it.postgres.url} / {@code .user} / {@code .password} and {@code atomicshards.it.mariadb.url}
 * / {@code .user} / {@code .password}.
 */
public enum DatabaseKind {
    /** Embedded in-memory H2 databases; no server needed. */
    H2("jdbc:h2:mem:", null, null),
    /** Databases on a PostgreSQL server; default {@code jdbc:postgresql://127.0.0.1:5432/postgres} as {@code postgres}. */
    POSTGRESQL("jdbc:postgresql://127.0.0.1:5432/", "postgres", ""),
    /** Databases on a MariaDB server; default {@code jdbc:mariadb://127.0.0.1:3306/} as {@code root}. */
    MARIADB("jdbc:mariadb://127.0.0.1:3306/", "root", "");

    private final String defaultBaseUrl;
    private final String defaultUser;
    private final String defaultPassword;

    DatabaseKind(String defaultBaseUrl, String defaultUser, String defaultPassword) {
        this.defaultBaseUrl = defaultBaseUrl;
        this.defaultUser = defaultUser;
        this.defaultPassword = defaultPassword;
    }

    private String property(String suffix) {
        String name = this == POSTGRESQL ? "postgres" : "mariadb";
        return System.getProperty("atomicshards.it." + name + "." + suffix);
    }

    /** The server URL without a database name (ending in '/'), or H2's in-memory prefix. */
    String baseUrl() {
        if (this == H2) {
            return defaultBaseUrl;
        }
        String url = property("url");
        if (url == null) {
            return defaultBaseUrl;
        }
        int slash = url.indexOf('/', url.indexOf("//") + 2);
        return slash < 0 ? url + "/" : url.substring(0, slash + 1);
    }

    /** The admin database's URL (the one used to create and drop test databases). */
    String adminUrl() {
        return this == POSTGRESQL ? baseUrl() + "postgres" : baseUrl();
    }

    String user() {
        String user = this == H2 ? null : property("user");
        return user != null ? user : defaultUser;
    }

    String password() {
        String password = this == H2 ? null : property("password");
        return password != null ? password : defaultPassword;
    }
}
