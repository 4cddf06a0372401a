package org.atomicshards.benchmarks.support;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;

/**
 * Wraps JDBC connections so that every statement they create waits a fixed time before each execution, standing in
 * for the network round trip of a remote database. Connections, metadata and everything else pass straight through,
 * so pools, Hibernate and ShardingSphere see the real database (its URL, its product name) behind the wrapper.
 *
 * <p>Every {@code execute*} method of {@link Statement}, {@link PreparedStatement} and {@link CallableStatement}
 * (query, update, batch, large update) waits exactly once per call; nothing else does.
 */
public final class StatementDelay {

    /** Waits for a duration; {@link Thread#sleep} in benchmarks, a recorder in tests. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final Duration duration;
    private final Sleeper sleeper;

    /** Waits with {@link Thread#sleep}. */
    public StatementDelay(Duration duration) {
        this(duration, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000));
    }

    /** @throws IllegalArgumentException if {@code duration} is negative */
    public StatementDelay(Duration duration, Sleeper sleeper) {
        this.duration = Objects.requireNonNull(duration, "duration");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("Statement delay must not be negative, was " + duration);
        }
    }

    public Duration duration() {
        return duration;
    }

    /** {@code connection}, with every statement it creates from now on delayed. */
    public Connection wrap(Connection connection) {
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
            sleeper.sleep(duration);
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
}
