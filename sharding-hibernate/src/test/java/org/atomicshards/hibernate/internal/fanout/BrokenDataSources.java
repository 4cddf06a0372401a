package org.atomicshards.hibernate.internal.fanout;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;

import javax.sql.DataSource;

/** Data sources that simulate a shard that is down, or one whose queries hang until they are cancelled. */
final class BrokenDataSources {

    private BrokenDataSources() {
    }

    /** Every connection attempt fails, as with a database that is down. */
    static DataSource down(String shard) {
        return new Delegating(null) {
            @Override
            public Connection getConnection() throws SQLException {
                throw new SQLException("Connection refused: " + shard + " is down (simulated)", "08001");
            }
        };
    }

    /**
     * Connections from the pool whose queries block until {@link PreparedStatement#cancel()} is called, as with a
     * shard that is far slower than any timeout. The connection still comes from (and returns to) the real pool.
     */
    static DataSource hanging(DataSource pool) {
        return new Delegating(pool) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = pool.getConnection();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            Object result = invoke(connection, method, args);
                            if (result instanceof PreparedStatement statement) {
                                return hangingStatement(statement);
                            }
                            return result;
                        });
            }
        };
    }

    /**
     * Connections from the pool whose result sets fail after {@code rows} rows, as with a shard lost in the middle of
     * a stream.
     */
    static DataSource failingAfter(DataSource pool, int rows) {
        return new Delegating(pool) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = pool.getConnection();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            Object result = invoke(connection, method, args);
                            return result instanceof PreparedStatement statement
                                    ? failingStatement(statement, rows) : result;
                        });
            }
        };
    }

    private static PreparedStatement failingStatement(PreparedStatement statement, int rows) {
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    Object result = invoke(statement, method, args);
                    if (result instanceof java.sql.ResultSet resultSet) {
                        int[] read = {0};
                        return Proxy.newProxyInstance(java.sql.ResultSet.class.getClassLoader(),
                                new Class<?>[] {java.sql.ResultSet.class}, (rsProxy, rsMethod, rsArgs) -> {
                                    if (rsMethod.getName().equals("next") && read[0]++ >= rows) {
                                        throw new SQLException("Connection reset (simulated loss mid-stream)",
                                                "08006");
                                    }
                                    return invoke(resultSet, rsMethod, rsArgs);
                                });
                    }
                    return result;
                });
    }

    private static PreparedStatement hangingStatement(PreparedStatement statement) {
        CountDownLatch cancelled = new CountDownLatch(1);
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "cancel":
                            cancelled.countDown();
                            return null;
                        case "executeQuery":
                            cancelled.await();
                            throw new SQLException("Query cancelled (simulated hang)", "57014");
                        default:
                            return invoke(statement, method, args);
                    }
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        }
        catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private abstract static class Delegating implements DataSource {
        private final DataSource delegate;

        Delegating(DataSource delegate) {
            this.delegate = delegate;
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (delegate != null) {
                return delegate.unwrap(type);
            }
            throw new SQLException("Not a wrapper of " + type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return delegate != null && delegate.isWrapperFor(type);
        }
    }
}
