package org.atomicshards.hibernate.internal.boot;

import org.atomicshards.hibernate.internal.connection.DeadConnections;
import org.atomicshards.hibernate.internal.connection.ShardConnectionProvider;
import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.boot.Metadata;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.integrator.spi.Integrator;

/**
 * Registers the routing guards as event listeners of a sharded session factory and completes the runtime once the
 * factory is built (directory, unit model, model check, schema on every shard). Does nothing for session factories
 * that do not use Atomic Shards' connection provider.
 */
public final class AtomicShardsIntegrator implements Integrator {

    @Override
    public void integrate(Metadata metadata, BootstrapContext bootstrapContext, SessionFactoryImplementor sessionFactory) {
        MultiTenantConnectionProvider<?> provider =
                sessionFactory.getServiceRegistry().getService(MultiTenantConnectionProvider.class);
        if (!(provider instanceof ShardConnectionProvider shardProvider)) {
            return;
        }
        ShardingRuntime runtime = shardProvider.unwrap(ShardingRuntime.class);
        runtime.registerGuards(sessionFactory);
        DeadConnections.install(sessionFactory.getJdbcServices().getSqlExceptionHelper());
        sessionFactory.addObserver(new SessionFactoryObserver() {
            private static final long serialVersionUID = 1L;

            @Override
            public void sessionFactoryCreated(SessionFactory factory) {
                runtime.start((SessionFactoryImplementor) factory, metadata);
            }

            @Override
            public void sessionFactoryClosing(SessionFactory factory) {
                runtime.closing();
            }
        });
    }
}
