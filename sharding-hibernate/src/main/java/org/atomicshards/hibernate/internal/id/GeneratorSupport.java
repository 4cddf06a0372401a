package org.atomicshards.hibernate.internal.id;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/** Finds the runtime of the session factory a generator runs in. */
final class GeneratorSupport {

    private GeneratorSupport() {
    }

    static ShardingRuntime runtimeOf(SharedSessionContractImplementor session, String generator) {
        MultiTenantConnectionProvider<?> provider =
                session.getFactory().getServiceRegistry().getService(MultiTenantConnectionProvider.class);
        if (provider == null || !provider.isUnwrappableAs(ShardingRuntime.class)) {
            throw new AtomicShardsException("@" + generator + " needs a sharded session factory (settings with "
                    + "atomicshards.shards); this session factory is not sharded");
        }
        return provider.unwrap(ShardingRuntime.class);
    }
}
