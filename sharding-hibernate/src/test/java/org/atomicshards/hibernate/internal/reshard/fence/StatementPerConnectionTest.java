package org.atomicshards.hibernate.internal.reshard.fence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StatementPerConnectionTest {

    private final String url = "jdbc:h2:mem:statements_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final StatementPerConnection reads = new StatementPerConnection("select v from t where k = ?");

    @BeforeEach
    void createTable() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute("create table t (k integer primary key, v varchar(10))");
            statement.execute("insert into t values (1, 'one'), (2, 'two')");
        }
    }

    @Test
    void aPooledConnectionKeepsItsStatementAcrossLoansAndThePoolDoesNotCloseIt() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(1);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            PreparedStatement first;
            try (Connection loan = pool.getConnection()) {
                first = reads.on(loan);
                assertThat(read(first, 1)).isEqualTo("one");
            }
            try (Connection loan = pool.getConnection()) {
                PreparedStatement second = reads.on(loan);
                assertThat(second).isSameAs(first);
                assertThat(second.isClosed()).isFalse();
                assertThat(read(second, 2)).isEqualTo("two");
            }
            assertThat(reads.size()).isEqualTo(1);
        }
    }

    @Test
    void aStatementThatFailedOrWasClosedIsPreparedAgain() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            PreparedStatement first = reads.on(connection);
            reads.failed(connection);
            assertThat(first.isClosed()).isTrue();
            PreparedStatement second = reads.on(connection);
            assertThat(second).isNotSameAs(first);
            second.close();
            PreparedStatement third = reads.on(connection);
            assertThat(third).isNotSameAs(second);
            assertThat(read(third, 1)).isEqualTo("one");
        }
    }

    @Test
    void theStatementsOfClosedConnectionsAreDroppedWhenAnotherIsPrepared() throws SQLException {
        Connection closed = DriverManager.getConnection(url);
        reads.on(closed);
        closed.close();
        try (Connection open = DriverManager.getConnection(url)) {
            reads.on(open);
            assertThat(reads.size()).isEqualTo(1);
            assertThat(read(reads.on(open), 2)).isEqualTo("two");
        }
    }

    private static String read(PreparedStatement statement, int key) throws SQLException {
        statement.setInt(1, key);
        try (ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
