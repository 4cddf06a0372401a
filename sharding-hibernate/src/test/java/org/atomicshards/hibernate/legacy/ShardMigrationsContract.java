package org.atomicshards.hibernate.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchemaException;
import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The application's Flyway and Liquibase migrations on every shard: at boot, one shard at a time, before Hibernate's
 * {@code validate} (which passes only if they created the tables on every shard); on a shard being added before it
 * joins; through {@code ShardSchema.migrate()}; each shard's version read back and differences flagged; a failing
 * shard named with the shards done and those not attempted; bad settings named with the fix.
 */
abstract class ShardMigrationsContract {

    static final String FLYWAY = "classpath:db/shard-migrations/flyway";
    static final String LIQUIBASE = "db/shard-migrations/liquibase/changelog.sql";

    private final List<ShardDatabases> databases = new ArrayList<>();
    private final List<ShardedSessionFactory> factories = new ArrayList<>();

    protected abstract DatabaseKind kind();

    @AfterEach
    void closeAll() {
        factories.forEach(ShardedSessionFactory::close);
        databases.forEach(ShardDatabases::close);
    }

    ShardDatabases databases(int count) {
        ShardDatabases dbs = ShardDatabases.create(kind(), count);
        databases.add(dbs);
        return dbs;
    }

    /** A factory over the first {@code listed} databases; the schema action validates what the migrations made. */
    ShardedSessionFactory boot(ShardDatabases dbs, int listed, Map<String, Object> migrations) {
        List<ShardDatabase> first = dbs.shards().subList(0, listed);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(AdoptionContract.MODEL)
                .virtualShards(16).connectionTimeoutMillis(10_000).schemaAction("validate");
        dbs.settings().forEach((key, value) -> {
            boolean unlisted = key.startsWith(ShardingSettings.SHARD_PREFIX) && first.stream()
                    .noneMatch(shard -> key.startsWith(ShardingSettings.SHARD_PREFIX + shard.id() + "."));
            if (!key.equals(ShardingSettings.SHARDS) && !(unlisted && key.endsWith(".url"))) {
                builder.property(key, value);
            }
        });
        builder.property(ShardingSettings.SHARDS, String.join(",", first.stream().map(ShardDatabase::id).toList()));
        builder.property(ShardingSettings.RESHARDING_AUTO_RESUME, "false");
        migrations.forEach(builder::property);
        ShardedSessionFactory factory = builder.catalog(dbs.newCatalogUrl()).build();
        factories.add(factory);
        return factory;
    }

    static Map<String, Object> flyway() {
        return Map.of(ShardingSettings.MIGRATIONS_TOOL, "flyway", ShardingSettings.MIGRATIONS_LOCATIONS, FLYWAY);
    }

    static Map<String, String> versions(ShardedSessionFactory shards) {
        Map<String, String> versions = new LinkedHashMap<>();
        for (ShardSchemaVersion version : shards.schema().versions()) {
            assertThat(version.error()).as("error reading " + version.shard()).isNull();
            versions.put(version.shard().name(), version.version());
        }
        return versions;
    }

    @Test
    void flywayMigratesEveryShardAtBootBeforeHibernateValidates() {
        ShardDatabases dbs = databases(3);

        ShardedSessionFactory shards = boot(dbs, 3, flyway());

        assertThat(versions(shards)).containsExactly(Map.entry("s0", "2"), Map.entry("s1", "2"), Map.entry("s2", "2"));
        assertThat(ShardSchemaVersion.differ(shards.schema().versions())).isFalse();
        Customer customer = new Customer("migrated");
        shards.persist(customer);
        assertThat(shards.find(Customer.class, customer.getId())).isNotNull();
    }

    @Test
    void liquibaseMigratesEveryShardAtBoot() {
        ShardDatabases dbs = databases(2);

        ShardedSessionFactory shards = boot(dbs, 2, Map.of(ShardingSettings.MIGRATIONS_TOOL, "liquibase",
                ShardingSettings.MIGRATIONS_CHANGELOG, LIQUIBASE));

        assertThat(versions(shards)).containsExactly(Map.entry("s0", "2"), Map.entry("s1", "2"));
        assertThat(shards.schema().migrate()).as("a second run changes nothing")
                .containsExactly(Map.entry(ShardId.of("s0"), "2"), Map.entry(ShardId.of("s1"), "2"));
    }

    @Test
    void aShardBeingAddedIsMigratedBeforeItJoins() {
        ShardDatabases dbs = databases(3);
        ShardedSessionFactory shards = boot(dbs, 2, flyway());
        ShardDatabase third = dbs.shards().get(2);

        shards.admin().addShard("s2", third.url(), third.user(), third.password());

        assertThat(versions(shards)).containsEntry("s2", "2");
        assertThat(Flyway.configure().dataSource(third.url(), third.user(), third.password()).locations(FLYWAY).load()
                .info().applied()).as("migrations applied on s2").hasSize(2);
    }

    @Test
    void versionsThatDifferAreFlaggedAndMigrateBringsEveryShardUp() {
        ShardDatabases dbs = databases(2);
        Map<String, Object> settings = new LinkedHashMap<>(flyway());
        settings.put(ShardingSettings.MIGRATIONS_AT_BOOT, "false");
        ShardDatabase first = dbs.shards().get(0);
        Flyway.configure().dataSource(first.url(), first.user(), first.password()).locations(FLYWAY)
                .target("1").load().migrate();
        ShardDatabase second = dbs.shards().get(1);
        Flyway.configure().dataSource(second.url(), second.user(), second.password()).locations(FLYWAY).load().migrate();
        ShardedSessionFactory shards = bootWithoutValidation(dbs, settings);

        assertThat(versions(shards)).containsExactly(Map.entry("s0", "1"), Map.entry("s1", "2"));
        assertThat(ShardSchemaVersion.differ(shards.schema().versions())).isTrue();

        shards.schema().migrate();

        assertThat(versions(shards)).containsExactly(Map.entry("s0", "2"), Map.entry("s1", "2"));
        assertThat(ShardSchemaVersion.differ(shards.schema().versions())).isFalse();
    }

    @Test
    void aFailingShardIsNamedWithTheShardsDoneAndThoseNotAttempted() throws SQLException {
        ShardDatabases dbs = databases(3);
        try (Connection connection = dbs.connect("s1"); Statement statement = connection.createStatement()) {
            statement.execute("create table order_line (something integer)");
        }

        assertThatThrownBy(() -> boot(dbs, 3, flyway()))
                .hasRootCauseInstanceOf(Exception.class)
                .satisfies(e -> assertThat(ourCause(e)).isInstanceOf(ShardSchemaException.class)
                        .hasMessageContaining("The application's flyway migrations failed on shard 's1'")
                        .hasMessageContaining("Migrated before it: {s0=2}")
                        .hasMessageContaining("not attempted: [s2]"));
        assertThat(AdoptionContract.tableExists(dbs, "s2", "flyway_schema_history")).as("s2 touched").isFalse();
    }

    @Test
    void anUnknownToolIsNamedWithTheFix() {
        ShardDatabases dbs = databases(1);

        assertThatThrownBy(() -> boot(dbs, 1, Map.of(ShardingSettings.MIGRATIONS_TOOL, "flyways")))
                .satisfies(e -> assertThat(ourCause(e)).isInstanceOf(ShardConfigurationException.class)
                        .hasMessageContaining("Setting 'atomicshards.migrations.tool' has value 'flyways'")
                        .hasMessageContaining("Fix: atomicshards.migrations.tool=flyway or liquibase"));
    }

    private ShardedSessionFactory bootWithoutValidation(ShardDatabases dbs, Map<String, Object> settings) {
        Map<String, Object> all = new LinkedHashMap<>(settings);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(AdoptionContract.MODEL)
                .virtualShards(16).connectionTimeoutMillis(10_000).schemaAction("none");
        dbs.settings().forEach(builder::property);
        all.forEach(builder::property);
        builder.property(ShardingSettings.RESHARDING_AUTO_RESUME, "false");
        ShardedSessionFactory factory = builder.catalog(dbs.newCatalogUrl()).build();
        factories.add(factory);
        return factory;
    }

    /** The library's own exception in the chain (Hibernate wraps what its boot calls throw). */
    static Throwable ourCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.atomicshards.hibernate.AtomicShardsException) {
                return t;
            }
        }
        return e;
    }
}
