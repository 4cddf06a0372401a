package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The factory's fan-out queries: settings read and validated at boot, the engine (and its executor) created on
 * first use and stopped with the factory.
 */
final class FanOutWiring {

    private final SessionFactoryImplementor sessionFactory;
    private final ShardRouterImpl router;
    private final FanOutSettings settings;
    private volatile FanOutQueries fanOut;

    /** @throws ShardConfigurationException if a fan-out setting is invalid */
    FanOutWiring(SessionFactoryImplementor sessionFactory, ShardRouterImpl router) {
        this.sessionFactory = sessionFactory;
        this.router = router;
        try {
            this.settings = FanOutSettings.fromProperties(sessionFactory.getProperties());
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException(e.getMessage());
        }
    }

    FanOutQueries fanOut() {
        FanOutQueries queries = fanOut;
        if (queries == null) {
            synchronized (this) {
                queries = fanOut;
                if (queries == null) {
                    queries = FanOutQueries.create(sessionFactory, router, settings);
                    fanOut = queries;
                }
            }
        }
        return queries;
    }

    /** Stops the fan-out executor, if one was started; idempotent. */
    void close() {
        FanOutQueries queries = fanOut;
        if (queries != null) {
            queries.close();
        }
    }
}
