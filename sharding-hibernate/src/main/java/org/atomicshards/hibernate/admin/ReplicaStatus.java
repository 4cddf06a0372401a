package org.atomicshards.hibernate.admin;

/**
 * One read replica as a check found it just now.
 *
 * @param shard the shard it replicates
 * @param name its name in the settings ({@code atomicshards.shard.<shard>.replica.<name>.url})
 * @param url its JDBC URL, without credentials
 * @param state {@code UP} (replicating within the maximum lag), {@code LAGGING} (beyond it, or its lag unknown:
 *              replication stopped or disconnected), {@code NOT_REPLICATING} (a primary: promoted, or never a
 *              replica) or {@code DOWN} (unreachable)
 * @param lagMillis the lag it reported, in milliseconds; -1 when unknown
 * @param detail why it is down, else empty; never holds credentials
 */
public record ReplicaStatus(String shard, String name, String url, String state, long lagMillis, String detail) {

    /** Whether reads may use it now. */
    public boolean up() {
        return state.equals("UP");
    }
}
