package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import org.atomicshards.testing.DatabaseKind;

/** {@link NetworkChaosContract} on MariaDB; killed connections are ended with {@code KILL CONNECTION}. */
class NetworkChaosMariaDbIT extends NetworkChaosContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected void killConnectionsOfS1() throws Exception {
        try (Connection admin = dbs.connect("s1")) {
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement list = admin.prepareStatement("select id from information_schema.processlist"
                    + " where db = database() and id <> connection_id()");
                 ResultSet rows = list.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
            try (PreparedStatement kill = admin.prepareStatement("kill connection ?")) {
                for (long id : ids) {
                    kill.setLong(1, id);
                    kill.execute();
                }
            }
        }
    }
}
