package org.atomicshards.hibernate;

import java.sql.SQLException;

import org.atomicshards.testing.DatabaseKind;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;

/**
 * {@link NetworkChaosContract} on H2, in the default build: s1 is served by an H2 TCP server behind the proxy. H2's
 * client has no socket timeout, so the black-hole cases of units of work are left to the real-database suites; a
 * killed connection is a connection the proxy cuts.
 */
class NetworkChaosTest extends NetworkChaosContract {

    private Server server;

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @Override
    protected String serverUrl(int index) {
        String url = super.serverUrl(index);
        if (index != 1) {
            return url;
        }
        if (server == null) {
            try {
                server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            }
            catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/" + url.substring("jdbc:h2:".length());
    }

    @Override
    protected boolean hasSocketTimeout() {
        return false;
    }

    @Override
    protected void killConnectionsOfS1() {
        proxy.cut();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.stop();
        }
    }
}
