package org.atomicshards.benchmarks.support;

import java.util.List;

import javax.sql.DataSource;

/**
 * A set of empty shard databases with the benchmark schema, each with a pool, created for one benchmark trial and
 * dropped by {@link #close()}: {@link H2Shards} in memory, {@link PostgresShards} on a PostgreSQL server.
 */
public interface ShardDatabases extends AutoCloseable {

    int count();

    /**
     * The URL to give a component that builds its own pool from a URL (Atomic Shards); statements through it get the
     * set's statement delay, if any.
     */
    String delayedUrl(int index);

    /** The user of every database of the set. */
    String user();

    /** That user's password (empty when the server trusts the user). */
    String password();

    /** The pool of database {@code index}. */
    DataSource pool(int index);

    List<DataSource> pools();

    /** A direct, undelayed data source for loading and checking data. */
    DataSource direct(int index);

    /**
     * A {@code FROM} item of integers {@code 0..?} (the upper bound is a parameter) in a column named {@code x},
     * aliased {@code r}; used to generate rows in one statement.
     */
    String seriesFromZero();

    /** Drops the databases; closes the pools first. */
    @Override
    void close();
}
