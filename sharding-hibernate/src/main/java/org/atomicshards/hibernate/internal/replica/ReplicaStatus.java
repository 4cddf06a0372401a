package org.atomicshards.hibernate.internal.replica;

import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ReplicaSpec;

/**
 * One replica as a check found it.
 *
 * @param label {@code <shard>/<name>}
 * @param url its JDBC URL, without credentials
 * @param state {@code UP} (replicating within the maximum lag), {@code LAGGING} (beyond it, or unknown),
 *              {@code NOT_REPLICATING} (a primary: promoted, or never a replica) or {@code DOWN}
 * @param lagMillis the lag it reported, or {@link ReplicaState#UNKNOWN_LAG}
 * @param detail why it is down, else empty; never holds credentials
 */
public record ReplicaStatus(String label, String url, String state, long lagMillis, String detail) {

    static ReplicaStatus of(ReplicaSpec replica, ReplicaState measured, long maxLagMillis) {
        SkipReason reason = measured.skipReason(maxLagMillis);
        return new ReplicaStatus(replica.label(), Redaction.url(replica.url()), reason == null ? "UP" : reason.name(),
                measured.lagMillis(), "");
    }

    static ReplicaStatus down(ReplicaSpec replica, Exception failure) {
        return new ReplicaStatus(replica.label(), Redaction.url(replica.url()), SkipReason.DOWN.name(),
                ReplicaState.UNKNOWN_LAG, Redaction.url(String.valueOf(failure.getMessage())));
    }

    /** Whether reads may use it now. */
    public boolean up() {
        return state.equals("UP");
    }
}
