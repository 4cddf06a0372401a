package org.atomicshards.benchmarks.support;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A {@link DataSource} that makes every statement it hands out wait a fixed time before each execution, standing in
 * for the network round trip of a remote database. Connections, metadata and everything else pass straight through
 * to the wrapped data source, so drivers, pools, Hibernate and ShardingSphere see the real database (its URL, its
 * product name) behind it.
 *
 * <p>Every {@code execute*} method of {@link Statement}, {@link PreparedStatement} and {@link CallableStatement}
 * (query, update, batch, large update) is delayed exactly once per call; nothing else is.
 */
public final class StatementDelayDataSource implements DataSource {

    /** Waits for a duration; {@link Thread#sleep(Duration)} in benchmarks, a recorder in tests. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final DataSource target;
    private final Duration delay;
    private final Sleeper sleeper;

    /** Delays each statement execution by {@code delay} using {@link Thread#sleep}. */
    public StatementDelayDataSource(DataSource target, Duration delay) {
        this(target, delay, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    public StatementDelayDataSource(DataSource target, Duration delay, Sleeper sleeper) {
        this.target = Objects.requireNonNull(target, "target");
        this.delay = Objects.requireNonNull(delay, "delay");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("Statement delay must not be negative, was " + delay);
        }
    }

    public Duration delay() {
        return delay;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return delayingConnection(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return delayingConnection(target.getConnection(username, password));
    }

    private Connection delayingConnection(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new ConnectionHandler(connection));
    }

    private final class ConnectionHandler implements InvocationHandler {

        private final Connection connection;

        ConnectionHandler(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Object result = invokeTarget(connection, method, args);
            if (result instanceof CallableStatement callable) {
                return delayingStatement(CallableStatement.class, callable, proxy);
            }
            if (result instanceof PreparedStatement prepared) {
                return delayingStatement(PreparedStatement.class, prepared, proxy);
            }
            if (result instanceof Statement statement) {
                return delayingStatement(Statement.class, statement, proxy);
            }
            return result;
        }
    }

    private Object delayingStatement(Class<? extends Statement> type, Statement statement, Object connectionProxy) {
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                new StatementHandler(statement, connectionProxy));
    }

    private final class StatementHandler implements InvocationHandler {

        private final Statement statement;
        private final Object connectionProxy;

        StatementHandler(Statement statement, Object connectionProxy) {
            this.statement = statement;
            this.connectionProxy = connectionProxy;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().startsWith("execute")) {
                pause();
            } else if (method.getName().equals("getConnection") && method.getParameterCount() == 0) {
                return connectionProxy;
            }
            return invokeTarget(statement, method, args);
        }
    }

    private void pause() throws SQLException {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted during the simulated statement delay", "70100", e);
        }
    }

    private static Object invokeTarget(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
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
