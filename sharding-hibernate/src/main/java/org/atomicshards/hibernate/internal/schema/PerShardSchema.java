package org.atomicshards.hibernate.internal.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchema;
import org.atomicshards.hibernate.ShardSchemaException;
import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.ShardingGap;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CatalogDialect;
import org.atomicshards.hibernate.internal.directory.DatabaseLock;
import org.hibernate.boot.Metadata;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.tool.schema.Action;
import org.hibernate.tool.schema.spi.SchemaManagementToolCoordinator;

/**
 * Runs Hibernate's {@link SchemaManagementToolCoordinator} once per physical shard, handing it that shard's
 * connection through {@code jakarta.persistence.schema-generation-connection}: Hibernate's tooling otherwise reaches
 * only the one connection of {@code getAnyConnection()} under multi-tenancy. Errors halt at the first failing shard.
 *
 * <p>Instances booting together take turns on each shard: the action runs while the instance holds the shard
 * database's own lock ({@link DatabaseLock}: an advisory lock on PostgreSQL, {@code GET_LOCK} on MariaDB, a JVM lock
 * per URL on embedded H2), so concurrent {@code update}s never race on the same DDL (the first creates, the next find
 * the tables). {@code create} still drops and recreates at every boot: several instances use {@code update},
 * {@code validate} or {@code none}.
 */
public final class PerShardSchema implements ShardSchema {

    private static final String SCHEMA_LOCK = "atomicshards_schema";

    private final Metadata metadata;
    private final SessionFactoryImplementor sessionFactory;
    private final Supplier<List<ShardId>> shards;
    private final ShardPools pools;
    private final long lockTimeoutMillis;
    private final ShardMigrations migrations;
    private final ShardingGaps gaps;
    private final ShardingPlanner planner;
    private final LibraryTables libraryTables;

    /** Tables of the library kept next to the mapped ones on every shard (index entries). */
    public interface LibraryTables {

        /** None. */
        LibraryTables NONE = (connection, action) -> { };

        /**
         * Brings the library's tables on the shard behind {@code connection} (autocommit, the shard's schema lock held)
         * in line with {@code action}, right after Hibernate's tooling ran it: create for CREATE and UPDATE (dropping
         * first for CREATE), drop for DROP; nothing for VALIDATE.
         */
        void apply(Connection connection, Action action) throws SQLException;
    }

    /**
     * @param shards the shards the actions run on, asked at every action (shards added at run time included)
     * @param lockTimeoutMillis how long to wait for another instance's schema action on the same shard
     * @param libraryTables the library's own tables, created and dropped with the mapped ones
     */
    public PerShardSchema(Metadata metadata, SessionFactoryImplementor sessionFactory, Supplier<List<ShardId>> shards,
                          ShardPools pools, long lockTimeoutMillis, ShardMigrations migrations, ShardingGaps gaps,
                          ShardingPlanner planner, LibraryTables libraryTables) {
        this.migrations = migrations;
        this.gaps = gaps;
        this.planner = planner;
        this.libraryTables = libraryTables;
        this.metadata = metadata;
        this.sessionFactory = sessionFactory;
        this.shards = shards;
        this.pools = pools;
        this.lockTimeoutMillis = lockTimeoutMillis;
    }

    /** Runs the boot part of a Hibernate schema action setting value ({@code create-drop} creates). */
    public void runAtBoot(String setting) {
        Action action = interpret(setting);
        switch (action) {
            case NONE -> { }
            case CREATE_DROP -> run(Action.CREATE);
            default -> run(action);
        }
    }

    /** Runs the close part of a schema action setting value ({@code create-drop} drops). */
    public void runAtClose(String setting) {
        if (interpret(setting) == Action.CREATE_DROP) {
            run(Action.DROP);
        }
    }

    private static Action interpret(String setting) {
        if (setting == null || setting.isBlank()) {
            return Action.NONE;
        }
        try {
            return Action.interpretHbm2ddlSetting(setting.trim());
        } catch (RuntimeException notHbm2ddl) {
            try {
                return Action.interpretJpaSetting(setting.trim());
            } catch (RuntimeException e) {
                throw new ShardConfigurationException("Setting '" + AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION
                        + "' has value '" + setting + "'. Fix: use none, create, create-drop, drop-and-create, "
                        + "update, validate or drop", e);
            }
        }
    }

    @Override
    public void create() {
        run(Action.CREATE);
    }

    @Override
    public void update() {
        run(Action.UPDATE);
    }

    @Override
    public void validate() {
        run(Action.VALIDATE);
    }

    @Override
    public void drop() {
        run(Action.DROP);
    }

    private void run(Action action) {
        for (ShardId shard : shards.get()) {
            runOn(shard, action);
        }
    }

    @Override
    public Map<ShardId, String> migrate() {
        return migrations.migrateAll();
    }

    @Override
    public List<ShardSchemaVersion> versions() {
        return migrations.versions();
    }

    @Override
    public List<ShardingGap> shardingGaps() {
        return gaps.find();
    }

    @Override
    public org.atomicshards.hibernate.ShardingPlan shardingPlan(ShardId shard, int batchSize) {
        return planner.plan(shard, batchSize);
    }

    /** The application's migrations of this factory ({@code atomicshards.migrations.*}). */
    public ShardMigrations migrations() {
        return migrations;
    }

    /**
     * Prepares the schema of a shard being added: the application's migrations if a tool is configured
     * ({@code atomicshards.migrations.tool}), then Hibernate's {@code update} (creates every missing table, sequence
     * and constraint, changes nothing that exists), then {@code validate}.
     *
     * @throws ShardSchemaException naming the shard if any fails
     */
    public void prepareNewShard(ShardId shard) {
        migrations.migrate(shard);
        runOn(shard, Action.UPDATE);
        runOn(shard, Action.VALIDATE);
    }

    private static void putIfNotNull(Map<String, Object> settings, String key, String value) {
        if (value != null && !value.isEmpty()) {
            settings.put(key, value);
        }
    }

    /** The shard's schema lock, or null on a database without one (the action then runs unserialised). */
    private DatabaseLock lock(Connection connection, ShardId shard, Action action) throws SQLException {
        Optional<CatalogDialect> dialect = CatalogDialect.of(connection);
        if (dialect.isEmpty()) {
            return null;
        }
        DatabaseLock lock = DatabaseLock.acquire(connection, dialect.get(), SCHEMA_LOCK, lockTimeoutMillis, false);
        if (lock == null) {
            throw new ShardSchemaException("Schema action '" + action.getExternalHbm2ddlName() + "' on shard '" + shard
                    + "' waited " + lockTimeoutMillis + " ms for another instance's schema action on the same shard. "
                    + "Fix: raise " + ShardingSettings.CATALOG_LOCK_TIMEOUT + ", or find the instance stuck in its boot", null);
        }
        return lock;
    }

    private void runOn(ShardId shard, Action action) {
        Map<String, Object> settings = new HashMap<>(
                sessionFactory.getServiceRegistry().requireService(ConfigurationService.class).getSettings());
        settings.remove(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION);
        settings.remove(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_ACTION);
        settings.remove("javax.persistence.schema-generation.database.action");
        settings.remove("javax.persistence.schema-generation.scripts.action");
        settings.put(AvailableSettings.HBM2DDL_AUTO, action.getExternalHbm2ddlName());
        settings.put(AvailableSettings.HBM2DDL_HALT_ON_ERROR, "true");
        try (Connection connection = pools.connection(shard);
             DatabaseLock lock = lock(connection, shard, action)) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try {
                settings.put(AvailableSettings.JAKARTA_HBM2DDL_CONNECTION, connection);
                if ((action == Action.VALIDATE || action == Action.UPDATE)
                        && !settings.containsKey(AvailableSettings.DEFAULT_CATALOG)) {
                    // Hibernate resolved the "current catalog" once, from the first shard; on databases where the
                    // catalog is the database name (H2, MariaDB) each shard must be inspected in its own catalog.
                    putIfNotNull(settings, AvailableSettings.DEFAULT_CATALOG, connection.getCatalog());
                    if (!settings.containsKey(AvailableSettings.DEFAULT_SCHEMA)) {
                        putIfNotNull(settings, AvailableSettings.DEFAULT_SCHEMA, connection.getSchema());
                    }
                }
                SchemaManagementToolCoordinator.process(metadata, sessionFactory.getServiceRegistry(), settings,
                        delayedDrop -> { });
                libraryTables.apply(connection, action);
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException | RuntimeException e) {
            if (e instanceof org.atomicshards.hibernate.AtomicShardsException ase) {
                throw ase;
            }
            throw new ShardSchemaException("Schema action '" + action.getExternalHbm2ddlName() + "' failed on shard '"
                    + shard + "': " + e.getMessage(), e);
        }
    }
}
