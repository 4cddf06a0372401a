package org.atomicshards.hibernate;

import java.util.List;
import java.util.stream.Stream;

/**
 * An open, merged stream of a fan-out query's rows. Each shard's rows are read through a cursor with the query's
 * fetch size, so memory stays at about shards x fetch-size rows however large the shards are (except where the
 * query needs all rows first: GROUP BY, aggregates, DISTINCT). Holds one connection per shard until closed:
 * always close it (try-with-resources).
 *
 * @param <T> the row type
 */
public interface ShardedResultStream<T> extends AutoCloseable {

    /** The merged rows, in order; one-shot. Closing the returned stream closes this object. */
    Stream<T> stream();

    /** Shards that failed so far (only under {@link ExecutionPolicy#PARTIAL}); grows as the stream is read. */
    List<ShardFailure> failures();

    /** The most shard rows the merge held in memory at once so far. */
    long peakBufferedRows();

    /** Releases every shard's cursor, session and connection; idempotent. */
    @Override
    void close();
}
