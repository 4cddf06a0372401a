package org.atomicshards.benchmarks.support;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDBC driver for URLs of the form {@code jdbc:statement-delay:<millis>:<url without "jdbc:">}, e.g.
 * {@code jdbc:statement-delay:5:h2:mem:shard0}: it connects to the real URL through {@link DriverManager} and delays
 * every statement execution by that many milliseconds ({@link StatementDelay}). This is the
 * {@link StatementDelayDataSource} for components that take a JDBC URL rather than a {@link javax.sql.DataSource}
 * (Atomic Shards builds its own pool per shard from a URL). Registered through {@code META-INF/services}.
 */
public final class StatementDelayDriver implements Driver {

    private static final String PREFIX = "jdbc:statement-delay:";
    private static final Pattern URL = Pattern.compile(Pattern.quote(PREFIX) + "([0-9]+):(.+)");

    static {
        try {
            DriverManager.registerDriver(new StatementDelayDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The URL that delays each statement on {@code url}'s database by {@code delay} (whole milliseconds). */
    public static String delayedUrl(String url, Duration delay) {
        if (!url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("Not a JDBC URL: " + url);
        }
        if (delay.isNegative() || delay.toNanosPart() % 1_000_000 != 0) {
            throw new IllegalArgumentException("The statement delay must be whole, non-negative milliseconds, was "
                    + delay);
        }
        return PREFIX + delay.toMillis() + ":" + url.substring("jdbc:".length());
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        Matcher parts = URL.matcher(url);
        if (!parts.matches()) {
            return null;
        }
        StatementDelay delay = new StatementDelay(Duration.ofMillis(Long.parseLong(parts.group(1))));
        return delay.wrap(DriverManager.getConnection("jdbc:" + parts.group(2), info));
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && URL.matcher(url).matches();
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("StatementDelayDriver does not log");
    }
}
