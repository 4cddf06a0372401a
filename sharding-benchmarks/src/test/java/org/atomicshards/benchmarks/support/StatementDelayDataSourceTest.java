package org.atomicshards.benchmarks.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class StatementDelayDataSourceTest {

    private final List<Duration> sleeps = new ArrayList<>();
    private final StatementDelayDataSource delayed =
            new StatementDelayDataSource(h2("delay_test"), new StatementDelay(Duration.ofMillis(5), sleeps::add));

    @Nested
    class EveryExecution {

        @Test
        void waitsOnceForEachExecuteCall() throws SQLException {
            try (Connection connection = delayed.getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("create table t (id int primary key)");
                statement.executeUpdate("insert into t values (1)");
                try (PreparedStatement select = connection.prepareStatement("select id from t where id = ?")) {
                    select.setInt(1, 1);
                    select.executeQuery().close();
                    select.executeQuery().close();
                }
            }
            assertThat(sleeps).containsExactly(Duration.ofMillis(5), Duration.ofMillis(5), Duration.ofMillis(5),
                    Duration.ofMillis(5));
        }

        @Test
        void doesNotWaitToConnectOrPrepare() throws SQLException {
            try (Connection connection = delayed.getConnection();
                 PreparedStatement statement = connection.prepareStatement("select 1")) {
                connection.getMetaData().getURL();
                statement.setFetchSize(10);
            }
            assertThat(sleeps).isEmpty();
        }

        @Test
        void returnsTheDatabasesResults() throws SQLException {
            try (Connection connection = delayed.getConnection();
                 PreparedStatement statement = connection.prepareStatement("select ? + 1")) {
                statement.setInt(1, 41);
                try (ResultSet rows = statement.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(42);
                }
                assertThat(statement.getConnection()).isSameAs(connection);
            }
        }
    }

    @Nested
    class Misconfiguration {

        @Test
        void rejectsANegativeDelay() {
            assertThatThrownBy(() -> new StatementDelayDataSource(h2("negative"), Duration.ofMillis(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must not be negative");
        }
    }

    @Nested
    class ThroughTheDriver {

        @Test
        void connectsToTheRealDatabaseBehindADelayUrl() throws SQLException {
            String url = StatementDelayDriver.delayedUrl("jdbc:h2:mem:delay_driver", Duration.ofMillis(1));
            assertThat(url).isEqualTo("jdbc:statement-delay:1:h2:mem:delay_driver");
            try (Connection connection = DriverManager.getConnection(url, "sa", "");
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select 6 * 7")) {
                assertThat(connection.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:delay_driver");
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
        }

        @Test
        void leavesOtherUrlsToOtherDrivers() {
            assertThat(new StatementDelayDriver().acceptsURL("jdbc:h2:mem:x")).isFalse();
            assertThat(new StatementDelayDriver().acceptsURL("jdbc:statement-delay:5:h2:mem:x")).isTrue();
        }

        @Test
        void rejectsDelaysThatAreNotWholeMilliseconds() {
            assertThatThrownBy(() -> StatementDelayDriver.delayedUrl("jdbc:h2:mem:x", Duration.ofNanos(1_500_000)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("whole, non-negative milliseconds");
        }
    }

    private static JdbcDataSource h2(String name) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + name);
        dataSource.setUser("sa");
        return dataSource;
    }
}
