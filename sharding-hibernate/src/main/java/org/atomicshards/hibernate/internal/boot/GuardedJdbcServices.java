package org.atomicshards.hibernate.internal.boot;

import java.util.Map;

import org.atomicshards.hibernate.internal.guard.BulkWriteGuard;
import org.atomicshards.hibernate.internal.guard.QueryReadGuard;
import org.hibernate.boot.registry.StandardServiceInitiator;
import org.hibernate.engine.jdbc.internal.JdbcServicesImpl;
import org.hibernate.engine.jdbc.spi.JdbcServices;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.sql.exec.spi.JdbcMutationExecutor;
import org.hibernate.sql.exec.spi.JdbcSelectExecutor;

/**
 * Hibernate's JDBC services with the {@link BulkWriteGuard} as the executor of bulk and native mutations and the
 * {@link QueryReadGuard} as the executor of selects; everything else is Hibernate's own. Installed by {@link AtomicShardsServiceContributor} in place of Hibernate's initiator.
 */
final class GuardedJdbcServices extends JdbcServicesImpl {

    private final BulkWriteGuard guard;
    private final QueryReadGuard reads;

    private GuardedJdbcServices(BulkWriteGuard guard, QueryReadGuard reads) {
        this.guard = guard;
        this.reads = reads;
    }

    @Override
    public JdbcMutationExecutor getJdbcMutationExecutor() {
        return guard;
    }

    @Override
    public JdbcSelectExecutor getJdbcSelectExecutor() {
        return reads;
    }

    /** The initiator that replaces Hibernate's {@code JdbcServicesInitiator}. */
    static StandardServiceInitiator<JdbcServices> initiator(BulkWriteGuard guard, QueryReadGuard reads) {
        return new StandardServiceInitiator<>() {
            @Override
            public Class<JdbcServices> getServiceInitiated() {
                return JdbcServices.class;
            }

            @Override
            public JdbcServices initiateService(Map<String, Object> configurationValues,
                                                ServiceRegistryImplementor registry) {
                return new GuardedJdbcServices(guard, reads);
            }
        };
    }
}
