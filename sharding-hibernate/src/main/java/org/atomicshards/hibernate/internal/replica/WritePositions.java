package org.atomicshards.hibernate.internal.replica;

import java.util.HashMap;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;

/**
 * What each thread last wrote on each shard: the primary's log position just after the write committed (PostgreSQL: a
 * WAL position; MariaDB: a GTID position). A replica that has replayed it shows the write. Positions only grow, so a
 * thread keeps the latest one per shard. Thread-safe (each thread sees its own).
 */
final class WritePositions {

    private final ThreadLocal<Map<ShardId, String>> byThread = ThreadLocal.withInitial(HashMap::new);

    void record(ShardId shard, String position) {
        byThread.get().put(shard, position);
    }

    /** A copy of this thread's positions, to hand to the threads of a fan-out. */
    Map<ShardId, String> ofThisThread() {
        Map<ShardId, String> positions = byThread.get();
        return positions.isEmpty() ? Map.of() : Map.copyOf(positions);
    }
}
