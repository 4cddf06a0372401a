package org.atomicshards.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A MariaDB account created for one test on the local server, whose only password is the one given, with every right
 * on the given databases; {@link #close()} drops it. For tests that prove a password in a URL is used and never shown.
 */
public final class MariaDbAccount implements AutoCloseable {

    private static final String ADMIN_URL = System.getProperty("atomicshards.it.mariadb.url",
            "jdbc:mariadb://127.0.0.1:3306/");

    private final String name;

    private MariaDbAccount(String name) {
        this.name = name;
    }

    /**
     * Creates an account named {@code prefix} and a random suffix.
     *
     * @param prefix    letters, digits and underscores
     * @param password  letters and digits (a test's constant: it is written into the statement)
     * @param databases the databases it may use
     */
    public static MariaDbAccount create(String prefix, String password, List<ShardDatabase> databases)
            throws SQLException {
        requireWord(prefix);
        requireWord(password);
        MariaDbAccount account = new MariaDbAccount(
                prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT));
        admin("create user '" + account.name + "'@'%' identified by '" + password + "'");
        for (ShardDatabase database : databases) {
            admin("grant all on " + databaseName(database) + ".* to '" + account.name + "'@'%'");
        }
        return account;
    }

    /** The account's user name. */
    public String name() {
        return name;
    }

    @Override
    public void close() throws SQLException {
        admin("drop user if exists '" + name + "'@'%'");
    }

    private static String databaseName(ShardDatabase database) {
        String name = database.url().substring(database.url().lastIndexOf('/') + 1);
        requireWord(name);
        return name;
    }

    /** Generated names and test constants only reach the statements: anything else is refused. */
    private static void requireWord(String text) {
        if (!text.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("Unexpected name or password for a test account: " + text);
        }
    }

    private static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN_URL,
                System.getProperty("atomicshards.it.mariadb.user", "root"),
                System.getProperty("atomicshards.it.mariadb.password", ""));
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
