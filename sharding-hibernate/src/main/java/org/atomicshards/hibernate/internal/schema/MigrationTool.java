package org.atomicshards.hibernate.internal.schema;

import org.atomicshards.hibernate.internal.config.ShardSpec;

/**
 * The application's migration tool, run against one shard database at a time. Implementations load the tool's
 * classes only when chosen, so that a tool not on the class path is never touched.
 */
interface MigrationTool {

    /** The tool's name, as the setting says it ({@code flyway}, {@code liquibase}). */
    String name();

    /**
     * Applies every pending migration to the shard's database; the tool's own lock serialises instances doing the
     * same. Never called for two shards at once by this library.
     *
     * @return the schema version the database has afterwards; null if the tool records none
     * @throws Exception whatever the tool throws; the caller names the shard
     */
    String migrate(ShardSpec shard) throws Exception;

    /**
     * The schema version the shard's database records (its history table), without changing anything.
     *
     * @return the version; null if the database has no history yet
     * @throws Exception whatever the tool or the driver throws; the caller names the shard
     */
    String version(ShardSpec shard) throws Exception;
}
