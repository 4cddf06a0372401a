package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.reshard.fence.StepGuard;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;

/**
 * What one batch of a move fences, copies, switches and releases: whole virtual shards ({@link BucketBatch}) or a
 * single unit of a placement policy ({@link UnitBatch}). The {@link Mover} runs the same steps for both (copy, catch
 * up, freeze, verify, switch, release, promote); each step's ownership change is this scope's. Every method is
 * idempotent, so a resumed batch can run it again.
 */
public interface BatchScope {

    /** The shard the batch's units come from. */
    ShardId source();

    /** The shard the batch's units go to. */
    ShardId target();

    /** The virtual shards whose change log ({@code as_moved_change}) holds the batch's writes. */
    List<Integer> logBuckets();

    /** The virtual shards the batch's units are on at the target once it is done (for the report). */
    List<Integer> targetVirtualShards();

    /** What the batch moves, for messages. */
    String describe();

    /**
     * On the target, inside the transaction that empties the staging tables: claims the arriving units so that work
     * routed there waits until the promotion. {@code source} is readable (autocommit). Waits for the target's running
     * writers at most the freeze timeout, if at all.
     */
    void claimTarget(Connection target, Connection source, MoveOptionsView options) throws SQLException;

    /**
     * On the source (autocommit): marks the batch MOVING, so writers log their units from now on and every writer
     * that entered before has ended; a batch interrupted while frozen is unfrozen.
     *
     * @throws IllegalStateException if the source does not own what the batch moves
     */
    void startSource(Connection source, MoveOptionsView options) throws SQLException;

    /**
     * Whether the batch moves the unit of {@code copier} with {@code key}, a key its source's writers logged or a key of
     * a virtual shard logged as changed whole: all of them but for a ring, whose writers log the keys the source keeps
     * too, and a unit moved alone.
     */
    default boolean moves(RowCopier copier, Object key) {
        return true;
    }

    /** The keys of {@code copier}'s unit that the batch moves, as found on the source. */
    Set<Object> keysOf(RowCopier copier, Connection source) throws SQLException;

    /**
     * The keys of {@code copier}'s unit that the batch's release deletes from the source, found there without changing
     * any claim (as {@link #keysOf} may, for the batches still to come).
     */
    default Set<Object> keysToRelease(RowCopier copier, Connection source) throws SQLException {
        return keysOf(copier, source);
    }

    /**
     * In the caller's transaction on the source: MOVING to FROZEN, waiting at most {@code timeoutSeconds} for the
     * writers holding the fence's shared lock (a lock timeout propagates as the database's exception).
     */
    void freeze(Connection source, int timeoutSeconds) throws SQLException;

    /** On the source, in the caller's transaction: FROZEN back to MOVING. */
    void unfreeze(Connection source) throws SQLException;

    /**
     * On the target, in the caller's transaction, once verified and before the switch: readers there must wait from now on. Waits at
     * most {@code timeoutSeconds} for the target's running writers (a lock timeout propagates as the database's
     * exception; the mover then unfreezes the source).
     */
    void beforeSwitch(Connection target, int timeoutSeconds) throws SQLException;

    /** The switch in the catalog with the journal's SWITCHED, in one catalog transaction; the new map version. */
    int switchOver(MoveJournal journal, String moveId, int batch, ShardId target, String owner, Instant lease);

    /**
     * On the source, in the caller's transaction, after the switch and before the promotion: FROZEN to SWITCHED under
     * {@code mapVersion}, so that work routed there is turned away as stale before the target takes writes (its rows
     * stay until the release, claimed for fan-outs, which re-run while target and source both hold them).
     */
    void markSwitched(Connection source, int mapVersion) throws SQLException;

    /**
     * On the source, in the release transaction after the batch's rows were deleted: the source's claims on them
     * removed and its change log entries deleted.
     */
    void releaseClaims(Connection source, int mapVersion) throws SQLException;

    /**
     * The virtual shards whose index entries move with the batch (they live by their value's virtual shard, whatever
     * unit they name): the batch's own virtual shards; none when single units or a ring's keys move.
     */
    default List<Integer> entryVirtualShards() {
        return List.of();
    }

    /** On the target, in the promotion's transaction: whether a promotion ran before (nothing left to do). */
    boolean promoted(Connection target) throws SQLException;

    /** On the target, in the promotion's transaction after staging went live: the claims made OWNED. */
    void promoteClaims(Connection target, int mapVersion) throws SQLException;

    /**
     * What a scope needs to fence the source: two move options, and the check each of its transactions on a shard runs
     * first ({@link RunToken}).
     */
    record MoveOptionsView(java.time.Duration freezeTimeout, int attempts, StepGuard guard) {
    }
}
