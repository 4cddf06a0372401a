package org.atomicshards.hibernate.internal.config;

import java.util.Locale;
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

    /** Whether the shard is an embedded H2 database (in memory or a file) in this JVM, not an H2 server (TCP/SSL). */
    public boolean embeddedH2() {
        String lower = url.toLowerCase(Locale.ROOT);
        return lower.startsWith("jdbc:h2:") && !lower.startsWith("jdbc:h2:tcp:") && !lower.startsWith("jdbc:h2:ssl:");
    }

    @Override
    public String toString() {
        return "ShardSpec[" + id + ", " + Redaction.url(url) + (user == null ? "" : ", user=" + user) + ", poolSize=" + poolSize + "]";
    }
}
