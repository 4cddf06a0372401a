package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * Online resharding: moves virtual shards (and every unit on them) between the shards of a running deployment while
 * the application keeps reading and writing. Every step is recorded in the catalog's move journal before it takes
 * effect, so an operation interrupted anywhere is carried to completion by {@link #resume()}, here or in another
 * instance. The protocol and its guarantees are in the README's "Resharding online" section.
 *
 * <p>Guarantees: no acknowledged write is lost; a unit is never readable or writable on two shards; writes to the
 * virtual shards of the batch being switched wait (bounded) or fail with the retryable
 * {@link org.atomicshards.hibernate.ShardMovingException}; other units are untouched. Methods block until the
 * operation finishes or fails ({@link MoveFailedException}, resumable).
 */
public interface ShardAdmin {

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
     * Carries every unfinished operation whose owner's lease has lapsed (or that this instance owns) to completion,
     * in the order they started.
     *
     * @return one report per operation finished
     */
    List<MoveReport> resume();

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
}
