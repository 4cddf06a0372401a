package org.atomicshards.hibernate;

import java.util.List;
import java.util.Objects;

/**
 * The schema changes that close a shard's {@linkplain ShardSchema#shardingGaps() sharding gaps}, as versioned
 * migration steps in the order they are applied, written in the shard's SQL dialect with every identifier quoted as
 * the database stores it and no value from the tables in the text. {@link FlywayPlanWriter} and
 * {@link LiquibasePlanWriter} write them for the application's migration tool. Made by
 * {@link ShardSchema#shardingPlan(ShardId, int)}.
 *
 * @param shard the shard whose live schema the plan was read from
 * @param dialect the SQL dialect of the statements
 * @param steps the migrations, in order; empty when the schema already matches the model
 */
public record ShardingPlan(ShardId shard, Dialect dialect, List<Step> steps) {

    /** The SQL dialects a plan is written in, from the shard's database product. */
    public enum Dialect {
        POSTGRESQL, MARIADB, H2
    }

    /**
     * One versioned migration.
     *
     * @param name a lower-case name made of letters, digits and underscores (a Flyway file name's description)
     * @param comment what the step does, what it locks and when to apply it, one line per element
     * @param statements the SQL statements, each complete without a terminating semicolon (a PostgreSQL {@code DO}
     *        block or a MariaDB procedure is one statement)
     * @param transactional false when the step commits batch by batch or builds an index concurrently: the tool must
     *        run it outside a transaction (Flyway {@code executeInTransaction=false}, Liquibase
     *        {@code runInTransaction: false})
     * @param atRestart true when the old application stops working once the step is applied: apply it while the
     *        application restarts onto the library
     */
    public record Step(String name, List<String> comment, List<String> statements, boolean transactional,
                       boolean atRestart) {

        public Step {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[a-z0-9_]+")) {
                throw new IllegalArgumentException("A step name is lower-case letters, digits and underscores: "
                        + name);
            }
            comment = List.copyOf(comment);
            statements = List.copyOf(statements);
        }
    }

    public ShardingPlan {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(dialect, "dialect");
        steps = List.copyOf(steps);
    }
}
