package org.atomicshards.hibernate.internal.config;

import java.util.Objects;

import org.atomicshards.hibernate.ShardId;

/**
 * One physical shard's connection settings. The URL carries no user or password ({@link UrlCredentials} took them
 * out into {@code user} and {@code password}); {@link #toString()} never shows the password, and masks any other
 * password-like parameter still in the URL.
 */
public record ShardSpec(ShardId id, String url, String user, String password, int poolSize) {

    public ShardSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
    }

    @Override
    public String toString() {
        return "ShardSpec[" + id + ", " + Redaction.url(url) + (user == null ? "" : ", user=" + user) + ", poolSize=" + poolSize + "]";
    }
}
