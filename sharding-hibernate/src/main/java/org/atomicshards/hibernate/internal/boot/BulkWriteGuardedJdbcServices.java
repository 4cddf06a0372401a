package org.atomicshards.hibernate.internal.boot;

import java.util.Map;

import org.atomicshards.hibernate.internal.guard.BulkWriteGuard;
import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.engine.jdbc.internal.JdbcServicesImpl;
import org.hibernate.engine.jdbc.spi.JdbcServices;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.sql.exec.spi.JdbcMutationExecutor;

/**
 * Hibernate's JDBC services with the {@link BulkWriteGuard} as the executor of bulk and native mutations; everything
 * else is Hibernate's own. Installed by {@link AtomicShardsServiceContributor} in place of Hibernate's initiator.
 */
final class BulkWriteGuardedJdbcServices extends JdbcServicesImpl {

    private final BulkWriteGuard guard;

    private BulkWriteGuardedJdbcServices(BulkWriteGuard guard) {
        this.guard = guard;
    }

    @Override
    public JdbcMutationExecutor getJdbcMutationExecutor() {
        return guard;
    }

    /** The initiator that replaces Hibernate's {@code JdbcServicesInitiator}. */
    static StandardServiceInitiator<JdbcServices> initiator(BulkWriteGuard guard) {
        return new StandardServiceInitiator<>() {
            @Override
            public Class<JdbcServices> getServiceInitiated() {
                return JdbcServices.class;
            }

            @Override
            public JdbcServices initiateService(Map<String, Object> configurationValues,
                                                ServiceRegistryImplementor registry) {
                return new BulkWriteGuardedJdbcServices(guard);
            }
        };
    }
}
