package org.atomicshards.hibernate.internal.index;

import java.sql.Connection;
import java.sql.SQLException;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;

/**
 * Where index entries live and how they are reached: the entry of a value lives on the shard owning its virtual shard
 * ({@link IndexValues#virtualShard}) and moves with it. Entries of one virtual shard are read and written on a pooled
 * connection of that shard, outside any unit of work's transaction, in short transactions of their own that pass the
 * virtual shard's ownership fence as a unit of work does: a write first share-locks the virtual shard's claim (so a move
 * freezes it only between such writes, and copies the entries while none can run), a read confirms the claim after it
 * ran (so it never answers from a shard that released the entries). A shard that no longer holds the virtual shard is
 * left for the one a refreshed map names; one that is switching it is waited for, except by a unit of work in flight.
 */
final class IndexShards {

    /** Work on one shard's entries. */
    interface Work<R> {
        R run(IndexEntries entries) throws SQLException;
    }

    private final CachedShardDirectory directory;
    private final ShardPools pools;
    private final OwnershipFence fence;

    IndexShards(CachedShardDirectory directory, ShardPools pools, OwnershipFence fence) {
        this.directory = directory;
        this.pools = pools;
        this.fence = fence;
    }

    int virtualShardOf(String digest) {
        return IndexValues.virtualShard(digest, directory.virtualShards());
    }

    /** The shards owning at least one virtual shard: those holding entries. */
    java.util.List<ShardId> entryShards() {
        return directory.owningShards();
    }

    /**
     * Runs {@code work}, which changes entries of {@code virtualShard}, on the shard holding it, in one transaction
     * that first share-locks the virtual shard's claim there; waits while the virtual shard switches.
     */
    <R> R write(int virtualShard, String what, Work<R> work) {
        return routed(virtualShard, what, true, true, work);
    }

    /**
     * As {@link #write}, for a unit of work in flight: does not wait while the virtual shard switches, but fails at
     * once. The unit of work holds its own unit's claim meanwhile, and a move that must freeze that claim too (or, on
     * H2, drain every writer of the shard) would wait for it in turn.
     *
     * @throws ShardMovingException if the virtual shard is switching; nothing was changed
     */
    <R> R writeInUnitOfWork(int virtualShard, String what, Work<R> work) {
        return routed(virtualShard, what, true, false, work);
    }

    /**
     * Runs {@code work}, which reads entries of {@code virtualShard}, on the shard holding it, in one transaction that
     * then confirms the shard still holds the virtual shard.
     */
    <R> R read(int virtualShard, String what, Work<R> work) {
        return routed(virtualShard, what, false, true, work);
    }

    private <R> R routed(int virtualShard, String what, boolean writes, boolean mayWait, Work<R> work) {
        FenceTarget target = FenceTarget.virtualShard(virtualShard);
        MoveWait wait = new MoveWait(directory, mayWait);
        while (true) {
            ShardId shard = directory.shardOf(virtualShard);
            try {
                return inTransaction(shard, what, connection -> {
                    if (writes) {
                        fence.enter(connection, shard, target);
                    }
                    R result = work.run(new IndexEntries(connection));
                    if (!writes) {
                        fence.confirmHeld(connection, shard, target);
                    }
                    return result;
                });
            } catch (FenceRejection rejection) {
                wait.beforeRetry(rejection, what);
            }
        }
    }

    private interface Transactional<R> {
        R run(Connection connection) throws SQLException;
    }

    private <R> R inTransaction(ShardId shard, String what, Transactional<R> work) {
        try (Connection connection = pools.connection(shard)) {
            connection.setAutoCommit(false);
            try {
                R result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new ShardIndexException("Could not " + what + " on shard '" + shard + "': " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work} on {@code shard}'s entries, every statement committing on its own: for maintenance that reads a
     * shard's entries whole ({@code verify}), not fenced.
     */
    <R> R on(ShardId shard, String what, Work<R> work) {
        try (Connection connection = pools.connection(shard)) {
            connection.setAutoCommit(true);
            try {
                return work.run(new IndexEntries(connection));
            } finally {
                connection.setAutoCommit(false);
            }
        } catch (SQLException e) {
            throw new ShardIndexException("Could not " + what + " on shard '" + shard + "': " + e.getMessage(), e);
        }
    }
}
