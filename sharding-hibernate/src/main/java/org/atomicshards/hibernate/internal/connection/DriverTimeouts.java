package org.atomicshards.hibernate.internal.connection;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariConfig;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;

/**
 * Gives the JDBC driver of a shard's pool the time limits of {@link ShardTimeouts} as driver properties, so that no
 * connect, login or read waits forever on a silent network. A property the shard's URL already sets is left alone
 * (the URL wins). Known drivers: PostgreSQL (seconds) and MariaDB / MySQL (milliseconds); other URLs (H2) get none.
 */
final class DriverTimeouts {

    private DriverTimeouts() {
    }

    /** The driver properties to add for {@code url}; empty for a driver we do not know. */
    static Map<String, String> forUrl(String url, ShardTimeouts timeouts) {
        String connect = String.valueOf(ShardTimeouts.seconds(timeouts.connectionTimeoutMillis()));
        if (url.startsWith("jdbc:postgresql:")) {
            return Map.of(
                    "connectTimeout", connect,
                    "loginTimeout", connect,
                    // A query timeout sends a cancel request over a new connection and the timed-out statement
                    // waits for it to finish: on a silent network that must not add the default 10 s.
                    "cancelSignalTimeout", "1",
                    "socketTimeout", String.valueOf(ShardTimeouts.seconds(timeouts.socketTimeoutMillis())),
                    "tcpKeepAlive", "true");
        }
        if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            return Map.of(
                    "connectTimeout", String.valueOf(timeouts.connectionTimeoutMillis()),
                    "socketTimeout", String.valueOf(timeouts.socketTimeoutMillis()),
                    "tcpKeepAlive", "true");
        }
        return Map.of();
    }

    /** Adds the properties of {@link #forUrl} that the URL does not set itself to the pool's driver properties. */
    static void apply(HikariConfig config, String url, ShardTimeouts timeouts) {
        forUrl(url, timeouts).forEach((name, value) -> {
            if (!setInUrl(url, name)) {
                config.addDataSourceProperty(name, value);
            }
        });
    }

    static boolean setInUrl(String url, String property) {
        return Pattern.compile("[?&;]" + Pattern.quote(property.toLowerCase(Locale.ROOT)) + "=")
                .matcher(url.toLowerCase(Locale.ROOT)).find();
    }
}
