package org.atomicshards.benchmarks.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A set of databases on one PostgreSQL server, one per shard, each with the benchmark schema and a HikariCP pool.
 * The server is {@value #DEFAULT_HOST}:{@value #DEFAULT_PORT}, user {@value #DEFAULT_USER} without a password
 * (trust), unless the system properties {@code benchmarks.pg.host}, {@code benchmarks.pg.port},
 * {@code benchmarks.pg.user} and {@code benchmarks.pg.password} say otherwise. Database names are unique per JVM
 * and instance ({@code bench_<scenario>_<pid>_<instance>_<index>}); {@link #close()} closes the pools and drops
 * the databases. The databases run with {@code synchronous_commit = off} (set on each database, nothing else on the
 * server changes), so that a unit of work's commit does not wait for the disk.
 */
public final class PostgresShards implements ShardDatabases {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 5432;
    public static final String DEFAULT_USER = "postgres";

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private static final List<String> SCHEMA = List.of(
            "create table customers (id bigint primary key, name varchar(64) not null,"
                    + " order_count int not null, last_order_cents bigint not null)",
            "create table purchase_orders (id bigint primary key, customer_id bigint not null,"
                    + " amount_cents bigint not null, placed_at bigint not null)",
            "create index purchase_orders_placed_at on purchase_orders (placed_at)",
            // a member's key column, as a deployment indexes it: a move finds each unit's orders by it
            "create index purchase_orders_customer_id on purchase_orders (customer_id)");

    private final List<String> databases;
    private final List<HikariDataSource> pools;

    private PostgresShards(List<String> databases, List<HikariDataSource> pools) {
        this.databases = List.copyOf(databases);
        this.pools = List.copyOf(pools);
    }

    /**
     * Creates {@code count} databases with the schema.
     *
     * @param scenario       a short name used in the database names (lower-case letters, digits, underscores)
     * @param poolSize       the maximum size of each database's pool
     * @param poolAutoCommit whether the pools hand out connections in auto-commit mode
     * @throws IllegalStateException if the server cannot be reached, naming the properties to set
     */
    public static PostgresShards create(String scenario, int count, int poolSize, boolean poolAutoCommit) {
        return create(scenario, count, true, new PoolSettings(poolSize, poolAutoCommit));
    }

    /**
     * {@code count} databases with the schema and no pools of their own ({@link #pool(int)} is not available): for a
     * factory that opens its own pools, without this set's idle connections beside them.
     */
    public static PostgresShards createUnpooled(String scenario, int count) {
        return create(scenario, count, true, null);
    }

    /**
     * As {@link #create} but the databases are left empty, without the benchmark schema: for a database another
     * component fills, such as Atomic Shards' catalog.
     */
    public static PostgresShards createEmpty(String scenario, int count, int poolSize) {
        return create(scenario, count, false, new PoolSettings(poolSize, true));
    }

    /** The pools a shard set opens on its databases: connections per database, whether they auto-commit. */
    private record PoolSettings(int size, boolean autoCommit) {
    }

    /** @param pools the pools to open on the databases, or null for none */
    private static PostgresShards create(String scenario, int count, boolean withSchema, PoolSettings pools) {
        if (count < 1) {
            throw new IllegalArgumentException("A shard set needs at least one database, was " + count);
        }
        String prefix = "bench_" + scenario + "_" + ProcessHandle.current().pid() + "_" + INSTANCES.incrementAndGet()
                + "_";
        List<String> names = new ArrayList<>();
        List<HikariDataSource> opened = new ArrayList<>();
        try (Connection admin = admin().getConnection(); Statement statement = admin.createStatement()) {
            for (int i = 0; i < count; i++) {
                String name = prefix + i;
                statement.execute("create database " + name);
                names.add(name);
                // A commit then does not wait for the WAL flush: the figures compare the clients' and the server's
                // work, not the (shared, slow) disk's flush latency, which would make every side look the same.
                statement.execute("alter database " + name + " set synchronous_commit = off");
                if (withSchema) {
                    createSchema(direct(name));
                }
                if (pools != null) {
                    opened.add(pool(name, pools.size(), pools.autoCommit()));
                }
            }
        } catch (SQLException | RuntimeException e) {
            opened.forEach(HikariDataSource::close);
            dropQuietly(names);
            throw new IllegalStateException("Could not create the PostgreSQL shards for " + scenario + " on "
                    + host() + ":" + port() + " as " + userName() + " (" + e + "). The benchmarks on PostgreSQL need a"
                    + " server there, or -Dbenchmarks.pg.host / .port / .user / .password pointing at one", e);
        }
        return new PostgresShards(names, opened);
    }

    private static String host() {
        return System.getProperty("benchmarks.pg.host", DEFAULT_HOST);
    }

    private static int port() {
        return Integer.getInteger("benchmarks.pg.port", DEFAULT_PORT);
    }

    private static String userName() {
        return System.getProperty("benchmarks.pg.user", DEFAULT_USER);
    }

    private static String passwordValue() {
        return System.getProperty("benchmarks.pg.password", "");
    }

    private static String url(String database) {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + database;
    }

    private static DataSource admin() {
        return direct("postgres");
    }

    private static DataSource direct(String database) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url(database));
        dataSource.setUser(userName());
        dataSource.setPassword(passwordValue());
        return dataSource;
    }

    private static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String ddl : SCHEMA) {
                statement.execute(ddl);
            }
        }
    }

    private static HikariDataSource pool(String database, int poolSize, boolean autoCommit) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(database);
        config.setJdbcUrl(url(database));
        config.setUsername(userName());
        config.setPassword(passwordValue());
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(1);
        config.setAutoCommit(autoCommit);
        return new HikariDataSource(config);
    }

    private static void dropQuietly(List<String> names) {
        try (Connection admin = admin().getConnection(); Statement statement = admin.createStatement()) {
            for (String name : names) {
                statement.execute("drop database if exists " + name + " with (force)");
            }
        } catch (SQLException e) {
            System.err.println("Could not drop the benchmark databases " + names + ": " + e);
        }
    }

    @Override
    public int count() {
        return databases.size();
    }

    @Override
    public String delayedUrl(int index) {
        return url(databases.get(index));
    }

    @Override
    public String user() {
        return userName();
    }

    @Override
    public String password() {
        return passwordValue();
    }

    /**
     * The pool of database {@code index}.
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

    @Override
    public DataSource direct(int index) {
        return direct(databases.get(index));
    }

    @Override
    public String seriesFromZero() {
        return "generate_series(0, ?) r(x)";
    }

    /** Closes the pools and drops the databases (forcing out any connection still open to them). */
    @Override
    public void close() {
        pools.forEach(HikariDataSource::close);
        try (Connection admin = admin().getConnection(); Statement statement = admin.createStatement()) {
            for (String name : databases) {
                statement.execute("drop database if exists " + name + " with (force)");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not drop the PostgreSQL databases " + databases + ": " + e, e);
        }
    }
}
