package org.atomicshards.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;

/**
 * {@link CliContract} on the local MariaDB server, through an account created for the test whose only password is
 * the contract's secret: every command connects with the password from the URLs or the environment.
 */
class CliMariaDbIT extends CliContract {

    private static final String ADMIN_URL = System.getProperty("atomicshards.it.mariadb.url", "jdbc:mariadb://127.0.0.1:3306/");

    private String account;

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected String login(List<ShardDatabase> databases) throws SQLException {
        // Generated names and a constant password: nothing user-supplied reaches these statements.
        account = "cli_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
        admin("create user '" + account + "'@'%' identified by '" + SECRET + "'");
        for (ShardDatabase database : databases) {
            admin("grant all on " + databaseName(database) + ".* to '" + account + "'@'%'");
        }
        return account;
    }

    @Override
    protected void dropLogin() throws SQLException {
        if (account != null) {
            admin("drop user if exists '" + account + "'@'%'");
        }
    }

    private static String databaseName(ShardDatabase database) {
        String name = database.url().substring(database.url().lastIndexOf('/') + 1);
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalStateException("Unexpected database name " + name);
        }
        return name;
    }

    private static void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(ADMIN_URL, System.getProperty("atomicshards.it.mariadb.user", "root"),
                System.getProperty("atomicshards.it.mariadb.password", ""));
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
