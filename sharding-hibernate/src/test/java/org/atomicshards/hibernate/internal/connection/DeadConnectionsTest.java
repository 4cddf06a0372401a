package org.atomicshards.hibernate.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;

import org.atomicshards.hibernate.ShardConnectionLostException;
import org.hibernate.JDBCException;
import org.hibernate.engine.jdbc.spi.SqlExceptionHelper;
import org.hibernate.exception.GenericJDBCException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A dead connection leaves Hibernate's conversion as a {@link ShardConnectionLostException}, which
 * {@code Session.find} cannot swallow; every other error is converted as before.
 */
class DeadConnectionsTest {

    private final SqlExceptionHelper helper = new SqlExceptionHelper(
            (e, message, sql) -> new GenericJDBCException(message, e, sql), false);

    DeadConnectionsTest() {
        DeadConnections.install(helper);
        DeadConnections.install(helper); // idempotent
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({"57P01, FATAL: terminating connection due to administrator command",
            "08006, An I/O error occurred while sending to the backend",
            "90067, Connection is broken",
            "'', Connection is closed"})
    void aDeadConnectionIsThrownAsConnectionLost(String state, String message) {
        SQLException dead = new SQLException(message, state.isEmpty() ? null : state);

        assertThatThrownBy(() -> helper.convert(dead, "select"))
                .isInstanceOf(ShardConnectionLostException.class)
                .hasMessageContaining(message)
                .hasCause(dead);
        assertThat(DeadConnections.isDeadConnection(new RuntimeException(dead))).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"23505, duplicate key", "57014, canceling statement due to user request", "42P01, no such table"})
    void otherErrorsAreConvertedAsBefore(String state, String message) {
        JDBCException converted = helper.convert(new SQLException(message, state), "select");

        assertThat(converted).isInstanceOf(GenericJDBCException.class);
        assertThat(DeadConnections.isDeadConnection(converted)).isFalse();
    }
}
