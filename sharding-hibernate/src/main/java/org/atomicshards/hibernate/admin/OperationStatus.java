package org.atomicshards.hibernate.admin;

import java.time.Instant;

import org.atomicshards.hibernate.ShardId;

/**
 * One unfinished operation, as recorded in the catalog's move journal.
 *
 * @param id the operation's id
 * @param kind MOVE, SPLIT, MERGE, DRAIN or REBALANCE
 * @param target the receiving shard
 * @param virtualShards the virtual shards it moves, as ranges ({@code 0-3,8})
 * @param state the state of the batch in progress (see <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/resharding.md#the-steps-of-one-batch">the steps of one batch</a>)
 * @param batch the batch in progress (0-based)
 * @param owner the instance running it, null if none
 * @param leaseUntil until when the owner holds it; after that {@link ShardAdmin#resume()} anywhere takes it over
 * @param error the last failure, null if none
 */
public record OperationStatus(String id, String kind, ShardId target, String virtualShards, String state, int batch,
                              String owner, Instant leaseUntil, String error) {
}
