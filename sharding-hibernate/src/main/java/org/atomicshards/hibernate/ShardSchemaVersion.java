package org.atomicshards.hibernate;

import java.util.Collection;
import java.util.Objects;

/**
 * The schema version one shard's migration history records ({@link ShardSchema#versions()}).
 *
 * @param shard the shard
 * @param version the version of the last migration applied there (Flyway's version, or the id of Liquibase's last
 *        change set); null when the shard has no history yet, or it could not be read
 * @param error why the history could not be read; null when it was read
 */
public record ShardSchemaVersion(ShardId shard, String version, String error) {

    public ShardSchemaVersion {
        Objects.requireNonNull(shard, "shard");
    }

    /** Whether the shards do not all record the same version (a shard that could not be read counts as differing). */
    public static boolean differ(Collection<ShardSchemaVersion> versions) {
        return versions.stream().anyMatch(v -> v.error() != null)
                || versions.stream().map(ShardSchemaVersion::version).distinct().count() > 1;
    }
}
