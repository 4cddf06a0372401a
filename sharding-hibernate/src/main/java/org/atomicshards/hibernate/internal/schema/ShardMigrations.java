package org.atomicshards.hibernate.internal.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchemaException;
import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ShardSpec;

/**
 * The application's migrations ({@link ShardingSettings#MIGRATIONS_TOOL}) on every shard: one shard at a time, in
 * topology order, stopping at the first that fails with an error naming it, the shards already migrated and those not
 * attempted. Thread-safe; runs are serialised within the instance (the tools' own locks serialise instances).
 */
public final class ShardMigrations {

    static final String DEFAULT_LOCATIONS = "classpath:db/migration";
    static final String DEFAULT_CHANGELOG = "db/changelog/db.changelog-master.yaml";

    private final MigrationTool tool;
    private final boolean atBoot;
    private final Supplier<List<ShardId>> shards;
    private final Function<ShardId, ShardSpec> specs;

    private ShardMigrations(MigrationTool tool, boolean atBoot, Supplier<List<ShardId>> shards,
                            Function<ShardId, ShardSpec> specs) {
        this.tool = tool;
        this.atBoot = atBoot;
        this.shards = shards;
        this.specs = specs;
    }

    /**
     * Reads the migration settings.
     *
     * @param shards the shards to migrate, asked at every run (shards added at run time included)
     * @param specs the URL and credentials of a shard
     * @throws ShardConfigurationException naming the setting, its value and the fix (an unknown tool, a tool whose
     *         library is not on the class path, a blank location)
     */
    public static ShardMigrations read(Map<String, Object> settings, Supplier<List<ShardId>> shards,
                                       Function<ShardId, ShardSpec> specs) {
        String toolName = text(settings, ShardingSettings.MIGRATIONS_TOOL, "none").toLowerCase(Locale.ROOT);
        boolean atBoot = bool(settings, ShardingSettings.MIGRATIONS_AT_BOOT);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ShardMigrations.class.getClassLoader();
        }
        MigrationTool tool = switch (toolName) {
            case "none" -> null;
            case "flyway" -> {
                require("org.flywaydb.core.Flyway", "flyway", "org.flywaydb:flyway-core (and flyway-database-postgresql "
                        + "or flyway-mysql for PostgreSQL or MariaDB shards)");
                String locations = text(settings, ShardingSettings.MIGRATIONS_LOCATIONS, DEFAULT_LOCATIONS);
                List<String> list = Arrays.stream(locations.split(",")).map(String::strip).toList();
                if (list.stream().anyMatch(String::isEmpty)) {
                    throw new ShardConfigurationException("Setting '" + ShardingSettings.MIGRATIONS_LOCATIONS
                            + "' has value '" + locations + "', which has an empty location. Fix: list Flyway "
                            + "locations separated by commas, e.g. classpath:db/migration,filesystem:/opt/sql");
                }
                Object baseline = settings.get(ShardingSettings.MIGRATIONS_BASELINE_VERSION);
                yield new FlywayMigrations(list, baseline == null || baseline.toString().isBlank() ? null
                        : baseline.toString().strip(), loader);
            }
            case "liquibase" -> {
                require("liquibase.command.CommandScope", "liquibase", "org.liquibase:liquibase-core");
                yield new LiquibaseMigrations(text(settings, ShardingSettings.MIGRATIONS_CHANGELOG,
                        DEFAULT_CHANGELOG), loader);
            }
            default -> throw new ShardConfigurationException("Setting '" + ShardingSettings.MIGRATIONS_TOOL
                    + "' has value '" + toolName + "', which is none of none, flyway and liquibase. Fix: "
                    + ShardingSettings.MIGRATIONS_TOOL + "=flyway or liquibase to run the application's migrations "
                    + "on every shard, or none");
        };
        return new ShardMigrations(tool, atBoot, shards, specs);
    }

    private static void require(String className, String tool, String artifact) {
        try {
            Class.forName(className, false, ShardMigrations.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.MIGRATIONS_TOOL + "' is " + tool
                    + ", but " + className + " is not on the class path. Fix: add the dependency " + artifact
                    + ", or set " + ShardingSettings.MIGRATIONS_TOOL + "=none", e);
        }
    }

    private static String text(Map<String, Object> settings, String key, String fallback) {
        Object value = settings.get(key);
        if (value == null || value.toString().isBlank()) {
            return fallback;
        }
        return value.toString().strip();
    }

    private static boolean bool(Map<String, Object> settings, String key) {
        String value = text(settings, key, "true").toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new ShardConfigurationException("Setting '" + key + "' has value '" + value + "', which is not a "
                    + "boolean. Fix: " + key + "=true or false");
        }
        return Boolean.parseBoolean(value);
    }

    /** Whether a migration tool is configured. */
    public boolean configured() {
        return tool != null;
    }

    /** Whether the boot runs the migrations (a tool is configured and {@code at_boot} is not false). */
    public boolean atBoot() {
        return tool != null && atBoot;
    }

    /**
     * Migrates every shard, one at a time in topology order; nothing when no tool is configured.
     *
     * @return the schema version of each shard afterwards, in topology order
     * @throws ShardSchemaException naming the first shard that failed, the shards migrated before it and the shards
     *         not attempted
     */
    public synchronized Map<ShardId, String> migrateAll() {
        Map<ShardId, String> versions = new LinkedHashMap<>();
        if (tool == null) {
            return versions;
        }
        List<ShardId> all = shards.get();
        for (int i = 0; i < all.size(); i++) {
            ShardId shard = all.get(i);
            try {
                versions.put(shard, tool.migrate(specs.apply(shard)));
            } catch (Exception e) {
                List<ShardId> rest = new ArrayList<>(all.subList(i + 1, all.size()));
                throw new ShardSchemaException("The application's " + tool.name() + " migrations failed on shard '"
                        + shard + "': " + Redaction.url(String.valueOf(e.getMessage())).strip() + ". Migrated before it: "
                        + (versions.isEmpty() ? "none" : versions) + "; not attempted: " + (rest.isEmpty() ? "none"
                        : rest) + ". Fix the migration or the shard's database, then migrate again (atomicshards "
                        + "schema migrate, or restart): the shards already migrated are skipped", e);
            }
        }
        return versions;
    }

    /**
     * Migrates one shard (a shard being added, before it takes any unit); nothing when no tool is configured.
     *
     * @throws ShardSchemaException naming the shard
     */
    public synchronized String migrate(ShardId shard) {
        if (tool == null) {
            return null;
        }
        try {
            return tool.migrate(specs.apply(shard));
        } catch (Exception e) {
            throw new ShardSchemaException("The application's " + tool.name() + " migrations failed on shard '" + shard
                    + "': " + Redaction.url(String.valueOf(e.getMessage())).strip() + ". Fix the migration or the "
                    + "shard's database, then try again", e);
        }
    }

    /** The schema version each shard records, in topology order; empty when no tool is configured. */
    public List<ShardSchemaVersion> versions() {
        List<ShardSchemaVersion> versions = new ArrayList<>();
        if (tool == null) {
            return versions;
        }
        for (ShardId shard : shards.get()) {
            try {
                versions.add(new ShardSchemaVersion(shard, tool.version(specs.apply(shard)), null));
            } catch (Exception e) {
                versions.add(new ShardSchemaVersion(shard, null, Redaction.url(String.valueOf(e.getMessage())).strip()));
            }
        }
        return versions;
    }
}
