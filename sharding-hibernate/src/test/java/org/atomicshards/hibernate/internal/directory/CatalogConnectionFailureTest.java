package org.atomicshards.hibernate.internal.directory;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/** Which catalog failures mean "unreachable" (retry later) rather than "the statement failed". */
class CatalogConnectionFailureTest {

    @Test
    void brokenConnectionsAreUnreachable() {
        assertThat(Catalog.isConnectionFailure(new SQLException("connection failure", "08006"))).isTrue();
        assertThat(Catalog.isConnectionFailure(new SQLException("Connection is broken", "90067", 90067))).isTrue();
        assertThat(Catalog.isConnectionFailure(new SQLException("wrapped", new EOFException()))).isTrue();
    }

    @Test
    void h2sIoExceptionWithoutItsCauseIsUnreachable() {
        // What H2's TCP client throws when the server's socket closes in the middle of a reply.
        assertThat(Catalog.isConnectionFailure(
                new SQLException("IO Exception: \"java.io.EOFException\"", "90028", 90028))).isTrue();
    }

    @Test
    void statementFailuresAreNot() {
        assertThat(Catalog.isConnectionFailure(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(Catalog.isConnectionFailure(new SQLException("Table not found", "42S02", 42102))).isFalse();
    }
}
