package org.atomicshards.hibernate.internal.schema;

import java.util.List;

import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Flyway on one shard: a Flyway configured with the application's locations and the shard's URL and credentials
 * (Flyway opens its own connections, outside the shard's pool), the classes and resources of the thread's context
 * class loader at construction. Flyway's history table ({@code flyway_schema_history}) lives on each shard.
 */
final class FlywayMigrations implements MigrationTool {

    private final List<String> locations;
    private final String baselineVersion;
    private final ClassLoader classLoader;

    /** @param baselineVersion the baseline of a shard with tables and no history; null: Flyway refuses such a shard */
    FlywayMigrations(List<String> locations, String baselineVersion, ClassLoader classLoader) {
        this.locations = List.copyOf(locations);
        this.baselineVersion = baselineVersion;
        this.classLoader = classLoader;
    }

    @Override
    public String name() {
        return "flyway";
    }

    private Flyway on(ShardSpec shard) {
        FluentConfiguration configuration = Flyway.configure(classLoader)
                .dataSource(shard.url(), shard.user(), shard.password())
                .locations(locations.toArray(String[]::new))
                .failOnMissingLocations(true);
        if (baselineVersion != null) {
            configuration.baselineOnMigrate(true).baselineVersion(baselineVersion);
        }
        return configuration.load();
    }

    @Override
    public String migrate(ShardSpec shard) {
        MigrateResult result = on(shard).migrate();
        return result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion;
    }

    @Override
    public String version(ShardSpec shard) {
        MigrationInfo current = on(shard).info().current();
        return current == null || current.getVersion() == null ? null : current.getVersion().getVersion();
    }
}
