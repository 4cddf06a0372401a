package org.atomicshards.hibernate;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.persistence.NoResultException;
import jakarta.persistence.NonUniqueResultException;
import jakarta.persistence.Parameter;

/**
 * A read query run on every shard that may hold matching rows, merged to what one unsharded database would return.
 * Created by {@link FanOutQueries}; not thread-safe (like a JPA query); reusable.
 *
 * <p>The target shards are pruned from shard-key predicates in the WHERE clause (equality, IN, and ranges under
 * range policies), using the bound parameter values. One target shard means the query runs there unchanged, with
 * no merge.
 *
 * @param <T> the row type: an entity, a scalar, {@code Object[]}, {@link jakarta.persistence.Tuple} or a class
 *            built by a constructor ({@code select new ...} / {@code cb.construct})
 */
public interface ShardedQuery<T> {

    /** Rows to skip after the merge; each shard is asked for first + max rows from its start. */
    ShardedQuery<T> setFirstResult(int firstResult);

    /** At most this many rows after the merge. */
    ShardedQuery<T> setMaxResults(int maxResults);

    ShardedQuery<T> setParameter(String name, Object value);

    ShardedQuery<T> setParameter(int position, Object value);

    <P> ShardedQuery<T> setParameter(Parameter<P> parameter, P value);

    /**
     * The time the whole fan-out has (counted from the call): a shard that has not answered by then fails with a
     * {@link ShardTimeoutException} and is abandoned (its statement cancelled, its connection aborted) without
     * waiting for it.
     */
    ShardedQuery<T> setTimeout(Duration timeout);

    ShardedQuery<T> setExecutionPolicy(ExecutionPolicy policy);

    /** Rows per round trip from each shard when streaming; also the per-shard buffer bound. */
    ShardedQuery<T> setFetchSize(int rows);

    /** Whether this query reads from the shards' replicas; default: {@link FanOutSettings#replicas()}. */
    ShardedQuery<T> setReadFromReplicas(boolean fromReplicas);

    /**
     * A JPA/Hibernate query hint, passed to every shard's query ({@code jakarta.persistence.query.timeout} in
     * milliseconds also sets {@link #setTimeout}).
     */
    ShardedQuery<T> setHint(String name, Object value);

    /** The shards this query would run on with the parameters bound now. */
    Set<ShardId> targetShards();

    /** Runs the query and returns the merged rows with the shards that failed (PARTIAL) and the buffer peak. */
    FanOutResult<T> execute();

    /** Runs the query; under PARTIAL the rows of failed shards are missing (use {@link #execute()} to see which). */
    List<T> getResultList();

    /** Opens a merged stream over the shards' cursors; close it. */
    ShardedResultStream<T> openStream();

    /** {@link #openStream()} as a {@link Stream}; closing the stream releases the shards. */
    Stream<T> getResultStream();

    /**
     * @throws NoResultException        if there is no row
     * @throws NonUniqueResultException if there is more than one row
     */
    T getSingleResult();

    /** @throws NonUniqueResultException if there is more than one row */
    T getSingleResultOrNull();
}
