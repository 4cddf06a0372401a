package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.PreparedStatement;

import org.atomicshards.testing.DatabaseKind;

/** {@link NetworkChaosContract} on PostgreSQL; killed connections are ended with {@code pg_terminate_backend}. */
class NetworkChaosPostgresIT extends NetworkChaosContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected void killConnectionsOfS1() throws Exception {
        try (Connection admin = dbs.connect("s1");
             PreparedStatement terminate = admin.prepareStatement("select pg_terminate_backend(pid) from"
                     + " pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")) {
            terminate.execute();
        }
    }
}
