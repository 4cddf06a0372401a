package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * Changes the topology of a running sharded deployment while the application keeps reading and writing: adds and
 * retires physical shards, moves virtual shards (and every unit on them) between shards online (move, split,
 * merge, drain, rebalance), moves one unit of a placement policy alone ({@link #moveUnit}), and adds or removes a
 * member of a consistent-hash ring with the keys the ring reassigns ({@link #addRingMember},
 * {@link #removeRingMember}). Every change is recorded in the catalog before it takes effect here; the other
 * instances on the same catalog take it over at their next refresh ({@code atomicshards.catalog.refresh_interval_ms})
 * or when a shard's ownership fence rejects them, and a restart reads it back. An operation interrupted anywhere is
 * carried to completion by {@link #resume()}, here or in another instance. The protocol and its guarantees are in
 * <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/resharding.md">resharding online</a>.
 *
 * <p>Guarantees of a move: no acknowledged write is lost; a unit is never readable or writable on two shards; writes
 * to the virtual shards of the batch being switched wait (bounded) or fail with the retryable
 * {@link org.atomicshards.hibernate.ShardMovingException}; other units are untouched. Methods block until the
 * operation finishes or fails ({@link MoveFailedException}, resumable).
 *
 * <p>Thread-safe: units of work, fan-outs and reference-data writes keep running while the topology changes.
 */
public interface ShardAdmin {

    /**
     * Adds a physical shard to the running factory. In order: checks the id (new, never retired) and the database
     * (reachable, the same kind as the other shards); opens its pool; creates its schema with the factory's schema
     * tooling (Hibernate's {@code update}, then {@code validate}); copies every {@code @ReferenceData} table that is
     * empty there from the first shard, and compares reference data across all shards (differences are in the
     * result and the log); records the shard in the catalog ({@code as_shard}: ONLINE, the URL without credentials);
     * then makes it part of this instance's topology. The shard owns no virtual shard yet: it holds no unit and no
     * fan-out queries it until virtual shards, placements or ring arcs are moved to it.
     *
     * <p>If a step fails, the shard is not recorded and the factory is as before (the pool is closed; tables created
     * on the new database are left there).
     *
     * @return what was copied and compared
     * @throws ShardTopologyException if the id is taken or retired, or the database is of another kind
     * @throws org.atomicshards.hibernate.ShardUnavailableException if the database cannot be reached
     * @throws org.atomicshards.hibernate.ShardSchemaException if its schema cannot be created or validated
     * @throws org.atomicshards.hibernate.CatalogUnavailableException if the catalog cannot be reached
     */
    ShardAdded addShard(NewShard shard);

    /**
     * Adds a physical shard with the factory's default pool size; see {@link #addShard(NewShard)}. A user or
     * password written into the URL is taken out of it, as at boot.
     */
    default ShardAdded addShard(String id, String url, String user, String password) {
        return addShard(NewShard.of(id, url, user, password));
    }

    /**
     * Adopts in place the database that held every row of the application before it was sharded: it becomes the first
     * shard and owns every virtual shard, and nothing is copied. For a factory configured with that database as its
     * only shard (the catalog then maps every virtual shard to it). In order, it checks: that {@code shard} owns every
     * virtual shard in the catalog's latest map; that no unit's policy records placements ({@code lookup},
     * {@code round_robin}: the stored units have none); that every table of every unit that carries the key in a
     * column of its own has that column, with a key in every row; that no stored id of an entity with Snowflake ids
     * reaches the Snowflake ids made from now on. Then, unless {@code dryRun}: raises the catalog's id sequence of every
     * entity hierarchy with {@code @SequenceBlockId} ids or the {@code sequence} key generation above the largest id
     * stored (so the library never hands out an id the database holds, on this shard or any shard added later, and
     * this instance forgets the blocks it held); creates and initialises the ownership fence on the shard (its
     * {@code as_*} tables); and logs the adoption in the catalog. Afterwards {@link #addShard}, {@link #split} and
     * {@link #rebalance} move units out online.
     *
     * <p>Idempotent: adopting again re-checks, raises the sequences again if rows were written with other ids in the
     * meantime, and leaves the fence as it is. Run it with no instance of the application writing with its old id
     * generator (IDENTITY, its own sequences): their ids could collide with the library's.
     *
     * @param dryRun only check and report; nothing is changed
     * @return the checks, the problems found (empty when adoptable) and the ids the library starts at
     * @throws AdoptionRefusedException if a check failed (not in a dry run); nothing was changed
     * @throws ShardTopologyException if {@code shard} does not own every virtual shard; nothing was changed
     * @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology
     * @throws org.atomicshards.hibernate.ShardUnavailableException if its database cannot be reached
     */
    AdoptionReport adopt(ShardId shard, boolean dryRun);

    /**
     * Retires a physical shard that owns nothing: no virtual shard in the catalog's latest map, no placement, no
     * place in a consistent-hash ring. Its status becomes RETIRED in the catalog (the id is never reused), it leaves
     * this instance's topology at once and the other instances' at their next refresh, and its pool is closed once
     * the work in flight on it has ended (bounded by the transaction timeout). The database and its rows are left as
     * they are.
     *
     * @throws ShardStillOwnsDataException naming what it still owns; nothing is changed
     * @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology
     */
    void removeShard(ShardId shard);

    /** {@link #removeShard(ShardId)} by name. */
    default void removeShard(String shard) {
        removeShard(ShardId.of(shard));
    }

    /**
     * Moves {@code virtualShards} (whoever owns each now) and every unit on them to {@code target}.
     *
     * @throws ReshardingConflictException if another operation holds one of these virtual shards or moves into
     *         {@code target}; nothing was changed
     * @throws MoveFailedException if the move stopped; resume it with {@link #resume()}
     * @throws IllegalArgumentException for an unknown shard or virtual shard, or an empty set
     */
    MoveReport move(Set<Integer> virtualShards, ShardId target, MoveOptions options);

    /** {@link #move(Set, ShardId, MoveOptions)} with {@link MoveOptions#defaults()}. */
    default MoveReport move(Set<Integer> virtualShards, ShardId target) {
        return move(virtualShards, target, MoveOptions.defaults());
    }

    /**
     * Moves one unit of a {@code lookup} or {@code round_robin} root (a big tenant, say) to {@code target}, alone:
     * the other units on its virtual shard stay. Its recorded placement becomes the target's first virtual shard (the
     * one {@code ShardedSessionFactory.place} uses). The protocol and guarantees are those of {@link #move}, for this
     * one unit: its writers are logged while it is copied, wait (bounded by
     * {@code atomicshards.resharding.write_pause_ms}) or fail with the retryable
     * {@link org.atomicshards.hibernate.ShardMovingException} while it is switched, it is never readable on two
     * shards, the operation is journalled before it takes effect and {@link #resume()} finishes it after a crash.
     * The unit's source virtual shard and the target's are reserved while it runs (as by a {@link #move}).
     *
     * @param root the unit's root entity class
     * @param key the unit's shard key
     * @return the report; no unit moved if it already lives on {@code target}
     * @throws IllegalArgumentException for an unknown shard, a class that is not a unit root, a root whose policy
     *         computes the shard from the key (naming the policy and what to use instead), or a key never placed
     * @throws ReshardingConflictException if another operation moves this unit, its virtual shard, or into
     *         {@code target}; nothing was changed
     * @throws MoveFailedException if the move stopped; resume it with {@link #resume()}
     */
    MoveReport moveUnit(Class<?> root, Object key, ShardId target, MoveOptions options);

    /** {@link #moveUnit(Class, Object, ShardId, MoveOptions)} with {@link MoveOptions#defaults()}. */
    default MoveReport moveUnit(Class<?> root, Object key, ShardId target) {
        return moveUnit(root, key, target, MoveOptions.defaults());
    }

    /**
     * Adds {@code shard} (an existing shard, e.g. from {@link #addShard}) to the consistent-hash ring of a
     * {@code consistent_hash} root and moves onto it exactly the keys the new ring gives it, online: one batch per
     * old member, each copying that member's leaving units, switching them and deleting them there. The guarantees
     * are those of {@link #move}, with one difference: a ring has no virtual shards, so the fence is per unit and shard,
     * and while a batch switches, writes to every key of the unit on its source and on {@code shard} wait (bounded by
     * {@code atomicshards.resharding.write_pause_ms}), not only to the keys that move. The new member joins the ring in
     * the catalog when the last batch is done; {@link #resume()} finishes an interrupted change.
     *
     * @param root the unit's root entity class
     * @return the report; nothing moved if {@code shard} is a member already
     * @throws IllegalArgumentException for an unknown shard, a class that is not a unit root, or a root whose policy
     *         has no ring (naming the operation to use instead)
     * @throws ReshardingConflictException if another operation changes this ring or moves into {@code shard}; nothing
     *         was changed
     * @throws MoveFailedException if the change stopped; resume it with {@link #resume()}
     */
    MoveReport addRingMember(Class<?> root, ShardId shard, MoveOptions options);

    /** {@link #addRingMember(Class, ShardId, MoveOptions)} with {@link MoveOptions#defaults()}. */
    default MoveReport addRingMember(Class<?> root, ShardId shard) {
        return addRingMember(root, shard, MoveOptions.defaults());
    }

    /**
     * Removes {@code shard} from the consistent-hash ring of a {@code consistent_hash} root and moves its keys to the
     * members the ring without it gives them to, online: one batch per remaining member. As {@link #addRingMember},
     * with {@code shard} the source of every batch; it leaves the ring in the catalog when the last batch is done, and
     * holds none of the unit's rows then (retire it with {@link #removeShard} once it owns nothing else).
     *
     * @return the report ({@link MoveReport#target()} is {@code shard}); nothing moved if it is not a member
     * @throws IllegalArgumentException for an unknown shard, a class that is not a unit root, a root whose policy has
     *         no ring, or the ring's last member
     * @throws ReshardingConflictException if another operation changes this ring or moves into {@code shard}
     * @throws MoveFailedException if the change stopped; resume it with {@link #resume()}
     */
    MoveReport removeRingMember(Class<?> root, ShardId shard, MoveOptions options);

    /** {@link #removeRingMember(Class, ShardId, MoveOptions)} with {@link MoveOptions#defaults()}. */
    default MoveReport removeRingMember(Class<?> root, ShardId shard) {
        return removeRingMember(root, shard, MoveOptions.defaults());
    }

    /**
     * Carries every unfinished operation that no other running owner holds to completion, in the order they
     * started: those whose run stopped (a run that fails releases its operation), those whose owner's lease has
     * lapsed (a killed process) and those this instance owns. An operation held by another owner's live lease is
     * left to it.
     *
     * @return one report per operation finished
     */
    List<MoveReport> resume();

    /**
     * {@link #resume()} with {@code options} (batch sizes, timeouts, progress listener) for the operations it
     * resumes.
     */
    List<MoveReport> resume(MoveOptions options);

    /** The unfinished operations recorded in the catalog. */
    List<OperationStatus> operations();

    /** Moves the upper half of {@code source}'s virtual shards to {@code target} (an existing, configured shard). */
    MoveReport split(ShardId source, ShardId target, MoveOptions options);

    /** Moves every virtual shard of {@code from} to {@code into}; {@code from} then owns nothing. */
    MoveReport merge(ShardId from, ShardId into, MoveOptions options);

    /** Moves every virtual shard of {@code shard} to the other shards, evenly. */
    List<MoveReport> drain(ShardId shard, MoveOptions options);

    /**
     * Plans the moves that even out the virtual shards over the configured shards (at most one apart); runs them
     * unless {@code dryRun}.
     */
    RebalancePlan rebalance(boolean dryRun, MoveOptions options);

    /**
     * Every read replica of the topology, asked now for its lag (in shard and name order); empty when no shard names
     * one. A replica is {@code UP} while reads may use it.
     */
    List<ReplicaStatus> replicas();
}
