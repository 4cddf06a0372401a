package org.atomicshards.hibernate.internal.replica;

/** Why a read skipped a replica for another replica or the primary. */
public enum SkipReason {
    /** No connection within the replica timeout, or it failed while asked about its lag. */
    DOWN,
    /** Its lag was beyond the maximum, or unknown (replication stopped or disconnected). */
    LAGGING,
    /** It replays no primary (a promoted standby, or a server that never was a replica). */
    NOT_REPLICATING,
    /** It has not yet replayed the tables the ownership checks read, which its primary created a moment ago. */
    BEHIND_SCHEMA,
    /** It has not replayed the latest change of which units its shard holds (a move) that this instance routes by. */
    BEHIND_MOVE,
    /** It did not replay the reading thread's own writes within the read-your-writes wait. */
    BEHIND_WRITES
}
