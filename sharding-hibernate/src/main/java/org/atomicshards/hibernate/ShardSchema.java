package org.atomicshards.hibernate;

/**
 * Hibernate's schema tooling run on every physical shard in turn (Hibernate's own tooling reaches only one
 * connection under multi-tenancy). Covers all mapped tables, reference data included. Each method stops at the
 * first shard that fails and names it. With {@code atomicshards.migrations.tool} set, the application's own Flyway or
 * Liquibase migrations run on every shard too ({@link #migrate()}).
 */
public interface ShardSchema {

    /** Drops and creates the mapped tables on every shard. */
    void create();

    /** Adds missing tables and columns on every shard. */
    void update();

    /**
     * Checks the mapped tables on every shard.
     *
     * @throws ShardSchemaException naming the first shard whose schema does not match
     */
    void validate();

    /** Drops the mapped tables on every shard. */
    void drop();

    /**
     * Runs the application's Flyway or Liquibase migrations ({@code atomicshards.migrations.tool}) on every shard, one
     * shard at a time in topology order; each tool's lock on a shard serialises instances doing the same. A shard
     * already up to date is left as it is. Does nothing when no tool is configured.
     *
     * @return each shard's schema version afterwards, in topology order; empty when no tool is configured
     * @throws ShardSchemaException naming the first shard that failed, the shards migrated before it and those not
     *         attempted
     * @throws ShardConfigurationException if the migration settings are invalid
     */
    java.util.Map<ShardId, String> migrate();

    /**
     * The schema version each shard's migration history records, in topology order, read without changing anything;
     * a shard whose history cannot be read is reported with the error, not thrown. Empty when no tool is configured.
     * {@link ShardSchemaVersion#differ} says whether the shards disagree.
     */
    java.util.List<ShardSchemaVersion> versions();

    /**
     * Compares each shard's live schema with what the annotated model needs to be sharded, read from the database's
     * metadata and without changing anything: every member table that carries the key in a column of its own has
     * that column, NOT NULL, filled in every row and leading an index; and every entity whose ids the library makes
     * from numbers ({@code @SequenceBlockId}, {@code @SnowflakeId}, the {@code sequence} key generation) has an id
     * column the database does not generate. Run it against the one database before adopting it.
     *
     * @return every gap, shard by shard in topology order, then in the order a migration closes them; empty when the
     *         schema matches
     * @throws ShardUnavailableException naming a shard that cannot be read
     */
    java.util.List<ShardingGap> shardingGaps();

    /**
     * The migration that closes the {@linkplain #shardingGaps() sharding gaps} of {@code shard}, read from its live
     * schema without changing anything, in its database's dialect (PostgreSQL, MariaDB, H2): the key column added to
     * each member table that lacks it, its values filled from the row each references (parents first, in committed
     * batches of {@code batchSize} ids on PostgreSQL and MariaDB, resumable), NOT NULL and an index leading with the
     * key, and the database's id generation dropped (a step to apply at the restart onto the library). Write it with
     * {@link FlywayPlanWriter} or {@link LiquibasePlanWriter}.
     *
     * @param batchSize how many ids each committed batch of the fill covers, at least 1
     * @return the steps, empty when the shard has no gap
     * @throws UnknownShardException if {@code shard} is not one of the shards
     * @throws ShardSchemaException naming a key column the plan cannot fill, and what to do instead
     * @throws ShardUnavailableException naming a shard that cannot be read
     * @throws IllegalArgumentException if {@code batchSize} is below 1 or the database is not one the plan is
     *         written for
     */
    ShardingPlan shardingPlan(ShardId shard, int batchSize);
}
