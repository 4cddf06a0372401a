package org.atomicshards.hibernate.internal.reshard.lease;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.sql.Connection;
import java.sql.DriverManager;

import org.atomicshards.hibernate.internal.reshard.lease.DirectConnections.ServerView;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;
import org.junit.jupiter.api.Test;

/** The comparison that decides whether a connection may hold a write lease: the server's view against the socket. */
class DirectConnectionsTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void aSessionTheServerSeesAtTheSocketsOwnEndsIsDirect() throws Exception {
        assertThat(DirectConnections.whyNotDirect(new ServerView("127.0.0.1", 51234, 5432), LOOPBACK, 51234, 5432))
                .isNull();
        assertThat(DirectConnections.whyNotDirect(new ServerView("::ffff:10.1.2.3", 40000, 3306),
                InetAddress.getByName("10.1.2.3"), 40000, 3306)).as("an IPv4 address the server writes as IPv6")
                .isNull();
    }

    @Test
    void aPoolerInBetweenShowsAsAnotherClientPortAndAnotherServerPort() {
        // PgBouncer on 6432: the server sees the pooler's own connection, from its port, to 5432
        assertThat(DirectConnections.whyNotDirect(new ServerView("127.0.0.1", 39000, 5432), LOOPBACK, 51234, 6432))
                .contains("127.0.0.1:39000 to port 5432", "127.0.0.1:51234 to port 6432", "pooler or proxy");
    }

    @Test
    void eachEndMustMatchOnItsOwn() throws Exception {
        assertThat(DirectConnections.whyNotDirect(new ServerView("127.0.0.1", 51235, 5432), LOOPBACK, 51234, 5432))
                .as("another client port").isNotNull();
        assertThat(DirectConnections.whyNotDirect(new ServerView("127.0.0.1", 51234, 5433), LOOPBACK, 51234, 5432))
                .as("another server port").isNotNull();
        assertThat(DirectConnections.whyNotDirect(new ServerView("10.0.0.7", 51234, 5432),
                InetAddress.getByName("10.0.0.8"), 51234, 5432)).as("another client address, same ports").isNotNull();
    }

    @Test
    void aSessionTheServerSeesNoNetworkAddressForIsNotProvenDirect() {
        assertThat(DirectConnections.whyNotDirect(new ServerView(null, null, 5432), LOOPBACK, 51234, 5432))
                .contains("no network address");
    }

    @Test
    void anEmbeddedH2ConnectionIsDirectAndADriverWhoseSocketCannotBeReadIsNot() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:direct_connections", "sa", "")) {
            assertThat(DirectConnections.whyNotDirect(ShardSql.H2, h2)).isNull();
            // a server database whose driver is not one the library reads the socket of: not proven direct
            assertThat(DirectConnections.whyNotDirect(ShardSql.POSTGRESQL, h2))
                    .contains("org.h2.jdbc.JdbcConnection", "could not be read");
        }
    }

    @Test
    void mariaDbsProcessListHostIsSplitIntoAddressAndPort() {
        assertThat(DirectConnections.mariaDbView("127.0.0.1:41234", 3306))
                .isEqualTo(new ServerView("127.0.0.1", 41234, 3306));
        assertThat(DirectConnections.mariaDbView("::1:41234", 3306)).isEqualTo(new ServerView("::1", 41234, 3306));
        assertThat(DirectConnections.mariaDbView("localhost", 3306)).as("a local socket")
                .isEqualTo(new ServerView(null, null, 3306));
    }

    @Test
    void aHostNameIsLeftToThePorts() {
        // MariaDB without skip-name-resolve names the client's host: the ports still have to match
        assertThat(DirectConnections.whyNotDirect(DirectConnections.mariaDbView("app-host:41234", 3306), LOOPBACK,
                41234, 3306)).isNull();
        assertThat(DirectConnections.whyNotDirect(DirectConnections.mariaDbView("app-host:41235", 3306), LOOPBACK,
                41234, 3306)).isNotNull();
    }
}
