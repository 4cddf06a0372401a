package org.atomicshards.hibernate;

/**
 * What a fan-out query does when a shard fails (an error, an unreachable database, no answer within the timeout).
 */
public enum ExecutionPolicy {

    /**
     * Every target shard must answer. The first failure cancels the shards still running and fails the query with a
     * {@link ShardQueryFailedException} naming each failed shard and its cause. The default.
     */
    COMPLETE,

    /**
     * The shards that answered are merged and returned; the failed ones are cancelled and reported in
     * {@link FanOutResult#failures()} (or {@link ShardedResultStream#failures()}). Use it where a partial answer is
     * better than none (dashboards, search), never where a missing row is a wrong answer.
     */
    PARTIAL
}
