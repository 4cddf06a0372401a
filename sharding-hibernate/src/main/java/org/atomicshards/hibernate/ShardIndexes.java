package org.atomicshards.hibernate;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Look-ups through the indexes of {@link org.atomicshards.annotations.ShardIndex} attributes: a value's index entry
 * lives on one shard, names the units holding the value, and those units are read on their own shards. Obtained from
 * {@link ShardedSessionFactory#indexes()}; thread-safe.
 *
 * <p>Guarantees, under concurrent writers and crashes of writers between their two writes:
 * <ul>
 *   <li>a look-up never misses a row whose value was committed before the look-up began;</li>
 *   <li>a look-up never returns a row whose attribute does not have the value (every row is read and checked on its
 *       own shard);</li>
 *   <li>entities are returned as their shards hold them, read-only, outside any unit of work; there is no order.</li>
 * </ul>
 * Criteria and HQL queries with {@code =} or {@code IN} on an indexed attribute use the same entries to choose their
 * shards.
 */
public interface ShardIndexes {

    /**
     * The entities of {@code type} whose {@code attribute} equals {@code value}.
     *
     * @throws ShardIndexException if {@code type.attribute} has no {@code @ShardIndex}
     */
    <T> List<T> find(Class<T> type, String attribute, Object value);

    /** The entities of {@code type} whose {@code attribute} equals one of {@code values}. */
    <T> List<T> findAll(Class<T> type, String attribute, Collection<?> values);

    /**
     * The one entity whose {@code attribute} of a unique index equals {@code value}.
     *
     * @throws ShardIndexException if the index is not unique
     */
    <T> Optional<T> findUnique(Class<T> type, String attribute, Object value);

    /** Whether an entity of {@code type} has {@code value} in {@code attribute}. */
    boolean exists(Class<?> type, String attribute, Object value);

    /**
     * Builds the index of {@code type.attribute} from the rows already on the shards, shard by shard in key order,
     * while the application writes (its writes keep the index from the moment the factory booted with the
     * annotation). Safe to run again, and to stop and run again: it writes each row's entry once more. Values of a
     * unique index that several units already hold are counted as conflicts, not failed.
     */
    IndexReport build(Class<?> type, String attribute);

    /**
     * Checks the index of {@code type.attribute} against the rows: every row holding a value must be named by an entry
     * of its value (else {@linkplain IndexReport#missing() missing}), every entry must name a unit holding its value
     * (else {@linkplain IndexReport#stale() stale}). With {@code clean}, deletes the stale entries older than the
     * claim timeout. Under concurrent writes a row or an entry may be counted in flight; run it again to confirm.
     */
    IndexReport verify(Class<?> type, String attribute, boolean clean);
}
