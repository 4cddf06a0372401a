package org.atomicshards.hibernate.internal.config;

/**
 * The time limits that keep a silent or broken network from blocking a caller: every wait on a shard's database is
 * bounded by one of them. Validated by {@link SettingsReader}; all in milliseconds.
 *
 * @param connectionTimeoutMillis getting a connection from a shard's pool (HikariCP {@code connectionTimeout}); also
 *        the driver's connect and login timeouts
 * @param validationTimeoutMillis checking an idle connection before handing it out (HikariCP
 *        {@code validationTimeout}), at most half the connection timeout so that a connection that hangs in its
 *        check still leaves the pool time to give up within the connection timeout
 * @param transactionTimeoutMillis a unit of work's transaction: at its deadline the unit's connection is aborted and
 *        the unit rolled back (see {@code UnitDeadlines})
 * @param socketTimeoutMillis the driver's socket read timeout, the backstop when the database cannot even be told to
 *        cancel a statement (a black-holed network): longer than any statement may legitimately run
 */
public record ShardTimeouts(long connectionTimeoutMillis, long validationTimeoutMillis, long transactionTimeoutMillis,
                            long socketTimeoutMillis) {

    /** HikariCP's smallest connection and validation timeout. */
    public static final long MIN_POOL_TIMEOUT_MILLIS = 250;

    /** Default transaction timeout of a unit of work: 30 s. */
    public static final long DEFAULT_TRANSACTION_TIMEOUT_MILLIS = 30_000;

    /** Margin of the default socket timeout over the longest statement timeout. */
    public static final long SOCKET_TIMEOUT_MARGIN_MILLIS = 1_000;

    /** The validation timeout for a connection timeout: half of it, between 250 ms and HikariCP's default 5 s. */
    public static long validationTimeoutFor(long connectionTimeoutMillis) {
        return Math.max(MIN_POOL_TIMEOUT_MILLIS, Math.min(5_000, connectionTimeoutMillis / 2));
    }

    /**
     * The default socket timeout: the longest statement timeout (the transaction timeout or the fan-out timeout)
     * plus {@link #SOCKET_TIMEOUT_MARGIN_MILLIS}, so that a statement the database cancels in time always answers
     * before the socket gives up.
     */
    public static long defaultSocketTimeout(long transactionTimeoutMillis, long fanOutTimeoutMillis) {
        return Math.max(transactionTimeoutMillis, fanOutTimeoutMillis) + SOCKET_TIMEOUT_MARGIN_MILLIS;
    }

    /** A timeout in whole seconds, rounded up (drivers and JDBC query timeouts count in seconds). */
    public static int seconds(long millis) {
        return (int) Math.max(1, (millis + 999) / 1000);
    }
}
