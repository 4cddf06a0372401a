package org.atomicshards.hibernate;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.hibernate.Session;
import org.hibernate.SessionFactory;

/**
 * One Hibernate {@link SessionFactory} over many shards, with routing by shard key. Obtain it from
 * {@link AtomicShards#configure()} (native bootstrap) or {@link AtomicShards#from(jakarta.persistence.EntityManagerFactory)}
 * (JPA bootstrap). Thread-safe.
 *
 * <p>A unit of work runs on exactly one shard in one local transaction. Inside
 * {@link #inUnit(Class, Object, Consumer)}, the guards reject, before anything is written: an entity whose key
 * belongs to another shard ({@link WrongShardException}), a nested unit of work or {@code persist} on another shard
 * ({@link CrossShardUnitOfWorkException}), a changed shard key ({@link ShardKeyChangedException}), a null key
 * ({@link MissingShardKeyException}) and a reference-data write outside {@link #replicate}
 * ({@link UnreplicatedReferenceDataWriteException}). The same guards hold in every session of the factory, however
 * it was opened.
 */
public interface ShardedSessionFactory extends AutoCloseable {

    /** The underlying Hibernate session factory (also a JPA {@code EntityManagerFactory}). */
    SessionFactory sessionFactory();

    /**
     * Unwraps to {@link SessionFactory}, {@link jakarta.persistence.EntityManagerFactory}, {@link ShardRouter},
     * {@link ShardDirectory}, or anything the session factory unwraps to.
     */
    <T> T unwrap(Class<T> type);

    /** The routing view: the shards holding rows and per-entity unit routing. Never queries the catalog. */
    ShardRouter router();

    /** The shard directory (virtual→physical map, placements), answered from memory. */
    ShardDirectory directory();

    /**
     * The active physical shards in topology order (the configured ones, then those added at run time), including
     * shards that own nothing yet; an immutable snapshot.
     */
    List<ShardId> shards();

    /**
     * The shard owning the unit with this key; empty under a lookup or round-robin policy when the key was never
     * placed.
     *
     * @param unit the unit's root entity class (or any member class)
     * @throws MissingShardKeyException if {@code key} is null
     * @throws UnroutableKeyException if the key does not fit the unit's policy
     */
    Optional<ShardId> shardFor(Class<?> unit, Object key);

    /**
     * The shard that holds the unit with this key now, as {@link #shardFor} names it but confirmed on that shard's
     * ownership fence: an instance whose map is out of date (a move it has not heard of yet) refreshes it, and a unit
     * still arriving at its new shard is waited for, instead of naming the shard the unit left. Bind a session or scope
     * opened for the unit's work to this shard ({@link #openSession(Class, Object)} does). Costs one read on the
     * shard, where {@code shardFor} reads memory only.
     *
     * @return empty under a lookup or round-robin policy when the key was never placed
     * @throws MissingShardKeyException if {@code key} is null
     * @throws UnroutableKeyException if the key does not fit the unit's policy
     * @throws ShardMovingException (retryable) if the unit stayed in the middle of a move for longer than
     *         {@code atomicshards.resharding.write_pause_ms}
     */
    Optional<ShardId> shardHolding(Class<?> unit, Object key);

    /**
     * Runs {@code work} in one session and one local transaction on the shard owning {@code key}, commits, and
     * closes the session. A new key of a round-robin unit is placed first. Inside another unit of work on the same
     * shard, joins it; on another shard, throws {@link CrossShardUnitOfWorkException} before running anything.
     * Any exception rolls the transaction back and is rethrown.
     */
    void inUnit(Class<?> unit, Object key, Consumer<Session> work);

    /** As {@link #inUnit(Class, Object, Consumer)}, returning {@code work}'s result. */
    <R> R callInUnit(Class<?> unit, Object key, Function<Session, R> work);

    /** As {@link #inUnit(Class, Object, Consumer)} for a factory with exactly one atomic unit. */
    void inUnit(Object key, Consumer<Session> work);

    /** As {@link #callInUnit(Class, Object, Function)} for a factory with exactly one atomic unit. */
    <R> R callInUnit(Object key, Function<Session, R> work);

    /**
     * Persists a new entity on the shard of its {@code @ShardKey}, in its own unit of work (or the enclosing one
     * when on the same shard). A new root whose policy generates keys gets its key first. Reference data is written
     * to every shard, as {@link #replicate} does.
     */
    void persist(Object entity);

    /**
     * The shard a write of {@code entity} goes to, decided as {@link #persist} decides it: a new root whose policy
     * generates keys gets its key assigned first, and a new key of a lookup or round-robin unit is placed. Nothing
     * else is written. Integrations that manage their own sessions (Spring) route {@code persist}/{@code merge} with
     * it.
     *
     * @return the owning shard; empty for reference data, which lives on every shard
     * @throws MissingShardKeyException if a member's key (or a root's key without key generation) is null
     * @throws UnroutableKeyException if the entity belongs to no unit, or its unit's key was never placed
     */
    Optional<ShardId> shardForWrite(Object entity);

    /**
     * The shards that may hold the entity of {@code type} with this id, as {@link #find} routes it: the one owning
     * shard when the id is the unit's key or encodes it (Snowflake ids); an empty set when a lookup or round-robin key
     * was never placed (no shard holds it); otherwise every shard owning virtual shards (only asking them can tell).
     * Every shard for reference data. Never queries a shard.
     *
     * @throws MissingShardKeyException if {@code id} is null
     * @throws UnroutableKeyException if {@code type} belongs to no unit and is not reference data
     */
    Set<ShardId> shardsForId(Class<?> type, Object id);

    /**
     * Finds an entity by id. Routed when the id is the unit's key or encodes it (Snowflake ids); otherwise the
     * shards are asked according to the unit's access strategy with combine {@link Combine#FIRST}. Reference data is
     * read from the current unit's shard, or the first shard. Returns null when no shard has the row.
     */
    <T> T find(Class<T> type, Object id);

    /**
     * Asks every shard owning virtual shards with {@code probe}, each in its own read-only session, according to the
     * unit's access (sequential or parallel) and combine (first non-null answer, or all non-null answers in
     * topology order) strategies.
     */
    <R> List<R> askShards(Class<?> unit, Function<Session, R> probe);

    /**
     * Records that the unit with {@code key} lives on {@code shard}, for a lookup or round-robin policy (e.g. a
     * tenant pinned to its own shard). Keeps an existing placement.
     *
     * @return the shard now recorded for the key
     */
    ShardId place(Class<?> unit, Object key, ShardId shard);

    /**
     * Opens a session on the shard owning {@code key} (placing a new round-robin key). The caller manages the
     * transaction and closes the session.
     */
    Session openSession(Class<?> unit, Object key);

    /**
     * Opens a session on {@code shard}. Each select in it is confirmed after it ran: if the shard's ownership changed
     * under a newer map than this instance's when the session opened (a unit moved away or arrived), the select throws
     * the retryable {@link ShardMovingException} (the map refreshed) instead of answering without a moved unit.
     *
     * @throws UnknownShardException if the shard is not in the topology
     */
    Session openSession(ShardId shard);

    /**
     * Opens a read-only session on {@code shard} (entities loaded read-only, read-only JDBC connection hint), for
     * queries that must not write. Its selects are confirmed as in {@link #openSession(ShardId)}. With
     * {@link ShardingSettings#REPLICA_READS} it reads from one of the shard's replicas that is within the maximum lag
     * and has replayed every change of which units the shard holds under this instance's map (asked on the replica
     * as the session opens); from the primary when none is.
     *
     * @throws UnknownShardException if the shard is not in the topology
     */
    Session openReadOnlySession(ShardId shard);

    /**
     * A read-only unit of work: runs {@code work} in a read-only session and transaction on the shard that holds
     * {@code key}'s unit (a replica of it with {@link ShardingSettings#REPLICA_READS}, as
     * {@link #openReadOnlySession(ShardId)} chooses), rolled back afterwards. Every select is confirmed to have read
     * the unit where it is held; a unit found moving is read again on the shard that holds it now.
     */
    <R> R readInUnit(Class<?> unit, Object key, Function<Session, R> work);

    /** Whether read-only work reads from replicas ({@link ShardingSettings#REPLICA_READS}). */
    boolean readOnlyWorkOnReplicas();

    /**
     * Writes reference data on every shard: runs {@code work} in a session per shard, flushes all of them, and
     * only then commits each. If the work or a flush fails on any shard, every transaction is rolled back and nothing
     * is applied; if a commit fails, the {@link ReferenceDataWriteException} names the shards that did and did not
     * apply the write.
     */
    void replicate(Consumer<Session> work);

    /**
     * Where the traffic routed by key went since the factory started (or since {@link #resetHotSpots()}): reads and
     * writes per virtual shard and per physical shard, the hottest virtual shards, the move of one virtual shard that
     * would even out the hottest and coldest shards, and the keys that dominate their virtual shard. Answered from
     * memory; empty when {@link ShardingSettings#HOT_SPOTS_ENABLED} is false.
     */
    HotSpotReport hotSpots();

    /** Starts the traffic counts of {@link #hotSpots()} afresh (e.g. after moving virtual shards). */
    void resetHotSpots();

    /** Schema management on every physical shard. */
    ShardSchema schema();

    /**
     * Look-ups through the indexes of {@link org.atomicshards.annotations.ShardIndex} attributes (each asks the one
     * shard holding the value's index entry, then the shards of the units it names).
     */
    ShardIndexes indexes();

    /**
     * Read queries across shards (Criteria or HQL), pruned by shard key and merged to what one database would
     * return; also the unbound fan-out {@code EntityManager}. Created on first use with
     * {@link FanOutSettings#defaults()} unless {@link ShardedSessionFactoryBuilder#fanOut(FanOutSettings)} set
     * others; closed with this factory.
     */
    FanOutQueries fanOut();

    /** Closes the session factory, the shard pools and the catalog connection. */
    @Override
    void close();

    /**
     * Changes the topology while the application runs: adds and retires physical shards, and moves, splits, merges,
     * drains and rebalances virtual shards online, resumes interrupted operations and lists those in progress (see
     * {@link org.atomicshards.hibernate.admin.ShardAdmin}). Never null.
     */
    org.atomicshards.hibernate.admin.ShardAdmin admin();
}
