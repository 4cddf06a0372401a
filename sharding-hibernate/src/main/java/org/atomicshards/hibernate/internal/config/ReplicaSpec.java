package org.atomicshards.hibernate.internal.config;

import java.util.Objects;

import org.atomicshards.hibernate.ShardId;

/**
 * One read replica's connection settings: {@code name} is unique among its shard's replicas. As in {@link ShardSpec},
 * the URL carries no credentials and {@link #toString()} never shows the password.
 */
public record ReplicaSpec(ShardId shard, String name, String url, String user, String password, int poolSize) {

    public ReplicaSpec {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
    }

    /** {@code <shard>/<name>}, as the replica appears in messages, meters and the status. */
    public String label() {
        return shard + "/" + name;
    }

    @Override
    public String toString() {
        return "ReplicaSpec[" + label() + ", " + Redaction.url(url) + (user == null ? "" : ", user=" + user)
                + ", poolSize=" + poolSize + "]";
    }
}
