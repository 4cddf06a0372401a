package org.atomicshards.hibernate.internal.fanout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.fanout.aggregate.BitXor;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.jdbc.connections.spi.AbstractDataSourceBasedMultiTenantConnectionProviderImpl;
import org.hibernate.query.sqm.produce.function.StandardFunctionReturnTypeResolvers;

/**
 * Test fixture until the runtime's factory is used: one multi-tenant Hibernate session factory over many
 * databases (H2 in memory, or PostgreSQL), where each database is a tenant: the "oracle" database holding every row,
 * and the shards of each layout (a policy and a shard count) holding the rows their router assigns them.
 */
final class ShardFixture implements OracleRunner.OracleDatabase, AutoCloseable {

    enum Backend { H2, POSTGRES }

    static final ShardId ORACLE = ShardId.of("oracle");
    private static ShardFixture sharedH2;

    private final Backend backend;
    private final String postgresUrl;
    private final String suffix = Long.toHexString(System.nanoTime() & 0xffffffL);
    private final Map<ShardId, DataSource> dataSources = new ConcurrentHashMap<>();
    private final Map<ShardId, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final Map<String, Layout> layouts = new ConcurrentHashMap<>();
    private final List<String> createdDatabases = new ArrayList<>();
    final TestDataSet data;
    final SessionFactory sessionFactory;

    /** A layout: shards filled by one policy, its router and a fan-out entry point over them. */
    record Layout(String name, TestRouter router, FanOutQueries queries) {
    }

    private ShardFixture(Backend backend, String postgresUrl, TestDataSet data) {
        this.backend = backend;
        this.postgresUrl = postgresUrl;
        this.data = data;
        createDatabase(ORACLE, key -> true);
        Configuration configuration = new Configuration()
                .addAnnotatedClass(Account.class)
                .addAnnotatedClass(Purchase.class)
                .addAnnotatedClass(Country.class);
        configuration.getProperties().put("hibernate.multi_tenant_connection_provider", new Provider());
        configuration.setProperty("hibernate.show_sql", "false");
        configuration.setProperty("hibernate.hbm2ddl.auto", "none");
        if (backend == Backend.H2) {
            // an aggregate no engine merges unless a test registers its kind (AddedAggregateTest)
            configuration.registerFunctionContributor(contributions -> contributions.getFunctionRegistry()
                    .namedAggregateDescriptorBuilder(BitXor.FUNCTION)
                    .setExactArgumentCount(1)
                    .setReturnTypeResolver(StandardFunctionReturnTypeResolvers.useArgType(1))
                    .register());
        }
        this.sessionFactory = configuration.buildSessionFactory();
    }

    /** The H2 fixture shared by the unit tests of this package (built once per JVM). */
    static synchronized ShardFixture h2() {
        if (sharedH2 == null) {
            sharedH2 = new ShardFixture(Backend.H2, null, new TestDataSet(20_261_121L, 400, 2_000, true));
        }
        return sharedH2;
    }

    static ShardFixture postgres(String url) {
        return new ShardFixture(Backend.POSTGRES, url, new TestDataSet(20_261_121L, 400, 2_000, true));
    }

    Backend backend() {
        return backend;
    }

    /** The layout with the given policy and shard count (created and filled on first use). */
    Layout layout(TestRouter.Policy policy, int shardCount) {
        return layouts.computeIfAbsent(policy.name().toLowerCase() + shardCount, name -> {
            List<ShardId> shards = new ArrayList<>();
            for (int i = 0; i < shardCount; i++) {
                shards.add(ShardId.of(name + "_s" + i));
            }
            TestRouter router = new TestRouter(shards, policy, data.keySpace);
            for (ShardId shard : shards) {
                createDatabase(shard, key -> router.shardOf(key).equals(shard));
            }
            return new Layout(name, router, FanOutQueries.create(sessionFactory, router, FanOutSettings.builder()
                    .parallelism(8).fetchSize(64).build()));
        });
    }

    /** A layout of its own (not cached), for tests that break or instrument its shards. */
    Layout privateLayout(String name, int shardCount, FanOutSettings settings) {
        List<ShardId> shards = new ArrayList<>();
        for (int i = 0; i < shardCount; i++) {
            shards.add(ShardId.of(name + "_s" + i));
        }
        TestRouter router = new TestRouter(shards, TestRouter.Policy.HASH, data.keySpace);
        for (ShardId shard : shards) {
            createDatabase(shard, key -> router.shardOf(key).equals(shard));
        }
        return new Layout(name, router, FanOutQueries.create(sessionFactory, router, settings));
    }

    HikariDataSource pool(ShardId shard) {
        return pools.get(shard);
    }

    /** Routes the shard's connections through another data source (e.g. one that fails or blocks). */
    void replaceDataSource(ShardId shard, DataSource dataSource) {
        dataSources.put(shard, dataSource);
    }

    @Override
    public SessionFactory sessionFactory() {
        return sessionFactory;
    }

    @Override
    public long keySpace() {
        return data.keySpace;
    }

    @Override
    public <T> T onOracle(Function<Session, T> work) {
        try (Session session = sessionFactory.withOptions().tenantIdentifier(ORACLE).openSession()) {
            return work.apply(session);
        }
    }

    <T> T onShard(ShardId shard, Function<Session, T> work) {
        try (Session session = sessionFactory.withOptions().tenantIdentifier(shard).openSession()) {
            return work.apply(session);
        }
    }

    private void createDatabase(ShardId shard, java.util.function.LongPredicate ownsKey) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("fanout-" + shard);
        config.setMaximumPoolSize(4);
        config.setMinimumIdle(0);
        if (backend == Backend.H2) {
            config.setJdbcUrl("jdbc:h2:mem:fanout_" + shard + ";DB_CLOSE_DELAY=-1");
        }
        else {
            String database = "as_fanout_" + suffix + "_" + shard.name().toLowerCase();
            try (Connection admin = DriverManager.getConnection(postgresUrl + "postgres", "postgres", "");
                 var statement = admin.createStatement()) {
                statement.execute("drop database if exists " + database);
                statement.execute("create database " + database
                        + " template template0 encoding 'UTF8' lc_collate 'C' lc_ctype 'C'");
            }
            catch (SQLException e) {
                throw new IllegalStateException("Cannot create the PostgreSQL database " + database, e);
            }
            createdDatabases.add(database);
            config.setJdbcUrl(postgresUrl + database);
            config.setUsername("postgres");
        }
        HikariDataSource pool = new HikariDataSource(config);
        try (Connection connection = pool.getConnection()) {
            TestDataSet.createSchema(connection, backend == Backend.H2);
            data.write(connection, ownsKey);
        }
        catch (SQLException e) {
            pool.close();
            throw new IllegalStateException("Cannot fill the database of " + shard, e);
        }
        pools.put(shard, pool);
        dataSources.put(shard, pool);
    }

    @Override
    public void close() {
        layouts.values().forEach(layout -> layout.queries().close());
        sessionFactory.close();
        pools.values().forEach(HikariDataSource::close);
        if (backend == Backend.POSTGRES) {
            try (Connection admin = DriverManager.getConnection(postgresUrl + "postgres", "postgres", "");
                 var statement = admin.createStatement()) {
                for (String database : createdDatabases) {
                    statement.execute("drop database if exists " + database + " with (force)");
                }
            }
            catch (SQLException e) {
                throw new IllegalStateException("Cannot drop the test databases", e);
            }
        }
    }

    /** Hands out each tenant's connections from its data source. */
    private final class Provider extends AbstractDataSourceBasedMultiTenantConnectionProviderImpl<ShardId> {
        private static final long serialVersionUID = 1L;

        @Override
        protected DataSource selectAnyDataSource() {
            return dataSources.get(ORACLE);
        }

        @Override
        protected DataSource selectDataSource(ShardId tenant) {
            DataSource dataSource = dataSources.get(tenant);
            if (dataSource == null) {
                throw new IllegalArgumentException("No database for tenant " + tenant);
            }
            return dataSource;
        }
    }
}
