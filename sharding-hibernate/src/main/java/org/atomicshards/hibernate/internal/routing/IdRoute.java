package org.atomicshards.hibernate.internal.routing;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;

/**
 * How {@code find} locates one entity type by its id, decided once at boot.
 *
 * @param kind where the id leads
 * @param key  the type's key accessor when the id is or holds the key; otherwise null
 */
public record IdRoute(Kind kind, MemberKey key) {

    /** Where an id leads. */
    public enum Kind {
        /** The id is the unit's key. */
        KEY,
        /** The composite id holds the unit's key. */
        KEY_IN_ID,
        /** A Snowflake id encodes the virtual shard of a virtual-shard policy. */
        SNOWFLAKE,
        /** The id says nothing about the shard: ask the shards. */
        ASK
    }

    /**
     * The shard {@code id} routes to; null for {@link Kind#ASK} (only asking the shards tells) and for a key a
     * directory policy never placed (no shard holds it).
     */
    public ShardId shardOf(UnitRoutingImpl unit, Object id, CachedShardDirectory directory) {
        return switch (kind) {
            case KEY -> unit.shardOf(id);
            case KEY_IN_ID -> unit.shardOf(key.keyFromState(null, id));
            case SNOWFLAKE -> directory.shardOf(SnowflakeLayout.virtualShardOf(((Number) id).longValue()));
            case ASK -> null;
        };
    }
}
