package org.atomicshards.cli;

import java.sql.SQLException;
import java.util.List;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.MariaDbAccount;
import org.atomicshards.testing.ShardDatabase;

/**
 * {@link CliContract} on the local MariaDB server, through an account created for the test whose only password is
 * the contract's secret: every command connects with the password from the URLs or the environment.
 */
class CliMariaDbIT extends CliContract {

    private MariaDbAccount account;

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected String login(List<ShardDatabase> databases) throws SQLException {
        account = MariaDbAccount.create("cli_it_", SECRET, databases);
        return account.name();
    }

    @Override
    protected void dropLogin() throws SQLException {
        if (account != null) {
            account.close();
        }
    }

    @Override
    protected String replicaStateForTheLogin() {
        return "DOWN";
    }
}
