package org.atomicshards.benchmarks.support;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Objects;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A {@link DataSource} whose connections make every statement wait a fixed time before each execution (see
 * {@link StatementDelay}), standing in for the network round trip of a remote database.
 */
public final class StatementDelayDataSource implements DataSource {

    private final DataSource target;
    private final StatementDelay delay;

    /** Delays each statement execution by {@code delay} using {@link Thread#sleep}. */
    public StatementDelayDataSource(DataSource target, Duration delay) {
        this(target, new StatementDelay(delay));
    }

    public StatementDelayDataSource(DataSource target, StatementDelay delay) {
        this.target = Objects.requireNonNull(target, "target");
        this.delay = Objects.requireNonNull(delay, "delay");
    }

    public Duration delay() {
        return delay.duration();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return delay.wrap(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return delay.wrap(target.getConnection(username, password));
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || target.isWrapperFor(iface);
    }
}
