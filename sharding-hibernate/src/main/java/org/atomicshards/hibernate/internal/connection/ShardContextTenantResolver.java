package org.atomicshards.hibernate.internal.connection;

import java.util.Optional;

import org.atomicshards.hibernate.ShardId;
import org.hibernate.context.spi.CurrentTenantIdentifierResolver;

/**
 * Hibernate's current-tenant resolver reading the {@link ShardContext}: a session opened without an explicit shard
 * is bound to the shard of the enclosing scope, or to the configured default shard, or to none (Hibernate then
 * refuses to open it).
 */
public final class ShardContextTenantResolver implements CurrentTenantIdentifierResolver<ShardId> {

    private final ShardId defaultShard;

    public ShardContextTenantResolver(Optional<ShardId> defaultShard) {
        this.defaultShard = defaultShard.orElse(null);
    }

    @Override
    public ShardId resolveCurrentTenantIdentifier() {
        ShardId current = ShardContext.current();
        return current != null ? current : defaultShard;
    }

    @Override
    public boolean validateExistingCurrentSessions() {
        return true;
    }
}
