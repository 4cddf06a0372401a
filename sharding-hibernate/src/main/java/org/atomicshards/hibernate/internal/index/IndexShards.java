package org.atomicshards.hibernate.internal.index;

import java.sql.Connection;
import java.sql.SQLException;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.spi.ShardDirectory;

/**
 * Where index entries live and how they are reached: the entry of a value lives on the shard owning its virtual shard
 * ({@link IndexValues#virtualShard}), and is read and written on a pooled connection of that shard in autocommit mode,
 * outside any unit of work's transaction.
 */
final class IndexShards {

    /** Work on one shard's entries. */
    interface Work<R> {
        R run(IndexEntries entries) throws SQLException;
    }

    private final ShardDirectory directory;
    private final ShardPools pools;

    IndexShards(ShardDirectory directory, ShardPools pools) {
        this.directory = directory;
        this.pools = pools;
    }

    int virtualShardOf(String digest) {
        return IndexValues.virtualShard(digest, directory.virtualShards());
    }

    ShardId shardOf(String digest) {
        return directory.shardOf(virtualShardOf(digest));
    }

    ShardId shardOfVirtualShard(int virtualShard) {
        return directory.shardOf(virtualShard);
    }

    /** The shards owning at least one virtual shard: those holding entries. */
    java.util.List<ShardId> entryShards() {
        return directory.owningShards();
    }

    /** Runs {@code work} on {@code shard}'s entries; every statement commits on its own. */
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
