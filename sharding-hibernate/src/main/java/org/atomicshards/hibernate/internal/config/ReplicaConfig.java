package org.atomicshards.hibernate.internal.config;

import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;

/**
 * The shards' read replicas and which reads use them.
 *
 * @param byShard the replicas of each shard that has any, in name order (shards added at run time included when this
 *                instance's settings name theirs)
 * @param readOnlyWork whether read-only sessions and units of work read from replicas
 * @param maxLagMillis the most a replica may lag for a read to use it
 * @param readYourWrites whether a thread's replica reads of a shard wait for its own committed writes there
 * @param readYourWritesWaitMillis how long such a read waits for a replica to replay them before it reads the primary
 */
public record ReplicaConfig(Map<ShardId, List<ReplicaSpec>> byShard, boolean readOnlyWork, long maxLagMillis,
                            boolean readYourWrites, long readYourWritesWaitMillis) {

    public ReplicaConfig {
        byShard = Map.copyOf(byShard);
    }

    /** The replicas of {@code shard}; empty if it has none. */
    public List<ReplicaSpec> of(ShardId shard) {
        return byShard.getOrDefault(shard, List.of());
    }

    /** Whether {@code shard} has a replica. */
    public boolean hasReplicas(ShardId shard) {
        return byShard.containsKey(shard);
    }

    /** Whether any shard has a replica. */
    public boolean any() {
        return !byShard.isEmpty();
    }
}
