package org.atomicshards.hibernate.internal.replica;

/**
 * What a replica said of itself just before a read.
 *
 * @param replicating whether it replays a primary's changes (false: a primary, e.g. a promoted standby)
 * @param lagMillis how far behind its primary it is, or {@link #UNKNOWN_LAG} when it cannot tell (replication
 *                  stopped or disconnected)
 * @param changedVersion its shard's latest ownership change as the replica has it, or {@link #NOT_READ}
 */
public record ReplicaState(boolean replicating, long lagMillis, int changedVersion) {

    public static final long UNKNOWN_LAG = -1;
    public static final int NOT_READ = Integer.MIN_VALUE;

    /** Why a read may not use the replica under {@code maxLagMillis}, or null if it may. */
    public SkipReason skipReason(long maxLagMillis) {
        if (!replicating) {
            return SkipReason.NOT_REPLICATING;
        }
        if (lagMillis == UNKNOWN_LAG || lagMillis > maxLagMillis) {
            return SkipReason.LAGGING;
        }
        return null;
    }
}
