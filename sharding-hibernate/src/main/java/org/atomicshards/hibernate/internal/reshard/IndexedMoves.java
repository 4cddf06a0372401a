package org.atomicshards.hibernate.internal.reshard;

import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;

/**
 * Refuses to move virtual shards in a factory with indexes: index entries live on the shard owning their value's
 * virtual shard and this release does not copy them with a move, so look-ups after the move would miss the entries
 * left behind. Moving single units and changing consistent-hash rings move no entry and are not refused.
 */
final class IndexedMoves {

    private IndexedMoves() {
    }

    /** @throws ShardIndexException naming the indexes, before anything is recorded */
    static void refuseIfIndexed(ShardRouterImpl router, String kind) {
        String indexes = router.indexNames();
        if (!indexes.isEmpty()) {
            throw new ShardIndexException(kind + " of virtual shards refused: this factory keeps the indexes "
                    + indexes + ", whose entries do not move with their virtual shards yet, so look-ups would miss "
                    + "them after the move. Nothing was recorded. Fix: remove @ShardIndex (and drop the tables "
                    + "atomicshards_index_unique and atomicshards_index_entry) before moving virtual shards, then "
                    + "build the indexes again with ShardIndexes.build");
        }
    }
}
