package org.atomicshards.hibernate.internal.connection;

import java.util.Optional;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.context.spi.CurrentTenantIdentifierResolver;

/**
 * Hibernate's current-tenant resolver reading the thread's {@link ShardBinding}: a session opened without an explicit
 * shard is bound to the shard of the enclosing scope or unit of work, or to the configured default shard, or to none (Hibernate then
 * refuses to open it).
 */
public final class BoundShardTenantResolver implements CurrentTenantIdentifierResolver<ShardId> {

    private final ShardId defaultShard;

    public BoundShardTenantResolver(Optional<ShardId> defaultShard) {
        this.defaultShard = defaultShard.orElse(null);
    }

    @Override
    public ShardId resolveCurrentTenantIdentifier() {
        ShardId current = ShardBinding.shard(null);
        return current != null ? current : defaultShard;
    }

    @Override
    public boolean validateExistingCurrentSessions() {
        return true;
    }
}
