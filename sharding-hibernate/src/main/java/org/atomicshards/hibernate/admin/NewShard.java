package org.atomicshards.hibernate.admin;

import java.util.Objects;

import org.atomicshards.hibernate.ShardId;

/**
 * A physical shard to add at run time: its id, JDBC URL and credentials, and optionally its pool size. The catalog
 * records the URL without credentials; every instance connects with the credentials of its own configuration
 * ({@code atomicshards.shard.<id>.user / .password}). {@link #toString()} never shows the password.
 *
 * @param poolSize the pool's maximum size; null for the factory's default pool size
 */
public record NewShard(ShardId id, String url, String user, String password, Integer poolSize) {

    public NewShard {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
        if (poolSize != null && poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be positive: " + poolSize);
        }
    }

    /** A shard with the default pool size; {@code user} and {@code password} may be null. */
    public static NewShard of(String id, String url, String user, String password) {
        return new NewShard(ShardId.of(id), url, user, password, null);
    }

    /** The same shard with another pool size. */
    public NewShard withPoolSize(int size) {
        return new NewShard(id, url, user, password, size);
    }

    @Override
    public String toString() {
        return "NewShard[" + id + (user == null ? "" : ", user=" + user) + (poolSize == null ? "" : ", poolSize=" + poolSize) + "]";
    }
}
