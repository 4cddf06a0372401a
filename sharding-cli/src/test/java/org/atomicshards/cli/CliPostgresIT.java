package org.atomicshards.cli;

import java.util.List;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;

/**
 * {@link CliContract} on the local PostgreSQL server. It trusts local connections, so the URLs' password opens
 * nothing here; what is checked is that no output shows it.
 */
class CliPostgresIT extends CliContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected String login(List<ShardDatabase> databases) {
        return databases.get(0).user();
    }

    @Override
    protected String replicaStateForTheLogin() {
        return "UP";
    }
}
