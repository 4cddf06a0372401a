package org.atomicshards.hibernate;

import java.sql.SQLException;

import org.atomicshards.testing.DatabaseKind;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;

class OnlineMoveTest extends OnlineMoveContract {

    private Server server;

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    /** The in-memory shard served by an H2 TCP server in this JVM, so a proxy can stand in front of it. */
    @Override
    protected String serverUrl(int index) {
        String url = super.serverUrl(index);
        if (server == null) {
            try {
                server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/" + url.substring("jdbc:h2:".length());
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.stop();
        }
    }
}
