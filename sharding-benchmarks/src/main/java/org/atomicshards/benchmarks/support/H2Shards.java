package org.atomicshards.benchmarks.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * A set of in-memory H2 databases, one per shard, each with the benchmark schema and a HikariCP pool, optionally
 * behind a {@link StatementDelayDataSource}. Database names are unique per instance, so several sets can live in one
 * JVM. {@link #close()} closes the pools and drops the databases.
 */
public final class H2Shards implements ShardDatabases {

    /** Pool size of every benchmark pool, whichever side uses it. */
    public static final int POOL_SIZE = 8;

    /** The user every shard database is created with (H2's embedded default admin). */
    public static final String USER = "sa";
    public static final String PASSWORD = "";

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final List<String> SCHEMA = List.of(
            "create table customers (id bigint primary key, name varchar(64) not null,"
                    + " order_count int not null, last_order_cents bigint not null)",
            "create table purchase_orders (id bigint primary key, customer_id bigint not null,"
                    + " amount_cents bigint not null, placed_at bigint not null)",
            "create index purchase_orders_placed_at on purchase_orders (placed_at)");

    private final List<String> urls;
    private final List<HikariDataSource> pools;
    private final Duration statementDelay;

    private H2Shards(List<String> urls, List<HikariDataSource> pools, Duration statementDelay) {
        this.urls = List.copyOf(urls);
        this.pools = List.copyOf(pools);
        this.statementDelay = statementDelay;
    }

    /**
     * Creates {@code count} empty databases with the schema.
     *
     * @param scenario        a short name used in the database names (letters and digits)
     * @param lazyQueries     whether H2 streams query results instead of materialising them (needed to measure a
     *                        streaming merge's memory rather than H2's)
     * @param statementDelay  the wait before every statement execution through the pools; {@link Duration#ZERO}
     *                        for none
     */
    public static H2Shards create(String scenario, int count, H2Mode mode, boolean lazyQueries,
                                  Duration statementDelay) {
        return create(scenario, count, mode, lazyQueries, statementDelay, true);
    }

    /**
     * As {@link #create(String, int, H2Mode, boolean, Duration)}, choosing whether the pools hand out connections
     * in auto-commit mode ({@code true}, HikariCP's default) or not ({@code false}: what Atomic Shards' pools do,
     * and what Hibernate's {@code hibernate.connection.provider_disables_autocommit} relies on).
     */
    public static H2Shards create(String scenario, int count, H2Mode mode, boolean lazyQueries,
                                  Duration statementDelay, boolean poolAutoCommit) {
        return create(scenario, count, mode, lazyQueries, statementDelay, poolAutoCommit, true);
    }

    /**
     * {@code count} empty databases with the schema and no pools of their own ({@link #pool(int)} is not available):
     * for measuring a factory that opens its own pools without this set's pools in the same heap and threads.
     */
    public static H2Shards createUnpooled(String scenario, int count) {
        return createUnpooled(scenario, count, false, Duration.ZERO);
    }

    /**
     * As {@link #createUnpooled(String, int)}, with H2's lazy query execution and a delay per statement for whoever
     * connects through {@link #delayedUrl(int)}.
     */
    public static H2Shards createUnpooled(String scenario, int count, boolean lazyQueries, Duration statementDelay) {
        return create(scenario, count, H2Mode.NATIVE, lazyQueries, statementDelay, false, false);
    }

    private static H2Shards create(String scenario, int count, H2Mode mode, boolean lazyQueries,
                                   Duration statementDelay, boolean poolAutoCommit, boolean pooled) {
        if (count < 1) {
            throw new IllegalArgumentException("A shard set needs at least one database, was " + count);
        }
        int instance = INSTANCES.incrementAndGet();
        List<String> urls = new ArrayList<>();
        List<HikariDataSource> pools = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                // result reuse off on every side: Atomic Shards turns it off on its H2 databases (it can return a
                // result from before a concurrent commit), so the baselines run under the same setting
                String url = "jdbc:h2:mem:bench_" + scenario + "_" + instance + "_" + i + ";DB_CLOSE_DELAY=-1"
                        + ";OPTIMIZE_REUSE_RESULTS=FALSE" + mode.urlSettings()
                        + (lazyQueries ? ";LAZY_QUERY_EXECUTION=TRUE" : "");
                urls.add(url);
                createSchema(unpooled(url));
                if (pooled) {
                    pools.add(pool(scenario + "-" + i, url, statementDelay, poolAutoCommit));
                }
            }
        } catch (SQLException | RuntimeException e) {
            pools.forEach(HikariDataSource::close);
            throw new IllegalStateException("Could not create the H2 shards for " + scenario + ": " + e, e);
        }
        return new H2Shards(urls, pools, statementDelay);
    }

    private static DataSource unpooled(String url) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        dataSource.setUser(USER);
        dataSource.setPassword(PASSWORD);
        return dataSource;
    }

    private static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String ddl : SCHEMA) {
                statement.execute(ddl);
            }
        }
    }

    private static HikariDataSource pool(String name, String url, Duration statementDelay, boolean autoCommit) {
        DataSource target = unpooled(url);
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        // Connections come from the data source; the URL is only read by tools that inspect the pool
        // (ShardingSphere takes the database type and catalog from it).
        config.setJdbcUrl(url);
        config.setUsername(USER);
        config.setDataSource(statementDelay.isZero() ? target : new StatementDelayDataSource(target, statementDelay));
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setAutoCommit(autoCommit);
        return new HikariDataSource(config);
    }

    @Override
    public int count() {
        return urls.size();
    }

    @Override
    public String user() {
        return USER;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public String seriesFromZero() {
        return "system_range(0, ?) r";
    }

    /** The JDBC URL of shard {@code index} (user {@link #USER}, password {@link #PASSWORD}); undelayed. */
    public String url(int index) {
        return urls.get(index);
    }

    /**
     * The URL to give a component that builds its own pool from a URL: statements through it get this set's delay
     * ({@link StatementDelayDriver}); without a delay it is {@link #url(int)}.
     */
    @Override
    public String delayedUrl(int index) {
        return statementDelay.isZero() ? url(index) : StatementDelayDriver.delayedUrl(url(index), statementDelay);
    }

    /**
     * The pool of shard {@code index}; delayed if the set was created with a delay.
     *
     * @throws IllegalStateException if the set was {@linkplain #createUnpooled created without pools}
     */
    @Override
    public DataSource pool(int index) {
        if (pools.isEmpty()) {
            throw new IllegalStateException("This shard set was created without pools");
        }
        return pools.get(index);
    }

    @Override
    public List<DataSource> pools() {
        return List.copyOf(pools);
    }

    /** A direct, undelayed data source for loading and checking data. */
    @Override
    public DataSource direct(int index) {
        return unpooled(urls.get(index));
    }

    @Override
    public void close() {
        pools.forEach(HikariDataSource::close);
        for (String url : urls) {
            try (Connection connection = unpooled(url).getConnection();
                 Statement statement = connection.createStatement()) {
                statement.execute("shutdown");
            } catch (SQLException e) {
                throw new IllegalStateException("Could not drop the H2 database " + url + ": " + e, e);
            }
        }
    }
}
