package org.atomicshards.benchmarks.support;

import java.util.logging.Level;
import java.util.logging.Logger;

import javax.sql.DataSource;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.connections.internal.DataSourceConnectionProvider;

/**
 * Builds the plain Hibernate {@link SessionFactory} the baselines use: the benchmark entities, over one
 * {@link DataSource}, with Hibernate's defaults otherwise (no batching, no second-level cache, no statistics), so
 * that every side differs only in what it is meant to compare. The plain baselines get the connection handling
 * Atomic Shards uses (pool without auto-commit, Hibernate told so), so that the comparison is not won by it.
 */
public final class HibernateFactories {

    /** Held so the level set on it is not lost when the logger is garbage collected. */
    private static final Logger HIBERNATE_LOG = Logger.getLogger("org.hibernate");

    private HibernateFactories() {
    }

    /**
     * @param dialect                  the dialect to force, or {@code null} to let Hibernate detect it
     * @param poolDisablesAutoCommit   whether {@code dataSource} hands out connections with auto-commit off; if so
     *                                 Hibernate is told ({@code provider_disables_autocommit}) and skips switching it
     *                                 per transaction, as Atomic Shards' own pools do
     */
    public static SessionFactory build(DataSource dataSource, Class<? extends Dialect> dialect,
                                       boolean poolDisablesAutoCommit) {
        HIBERNATE_LOG.setLevel(Level.WARNING);
        DataSourceConnectionProvider connections = new DataSourceConnectionProvider();
        connections.setDataSource(dataSource);
        StandardServiceRegistryBuilder settings = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.CONNECTION_PROVIDER, connections)
                .applySetting(AvailableSettings.HBM2DDL_AUTO, "none")
                .applySetting(AvailableSettings.SHOW_SQL, false)
                .applySetting(AvailableSettings.CONNECTION_PROVIDER_DISABLES_AUTOCOMMIT, poolDisablesAutoCommit);
        if (dialect != null) {
            settings.applySetting(AvailableSettings.DIALECT, dialect.getName());
        }
        StandardServiceRegistry registry = settings.build();
        try {
            return new MetadataSources(registry)
                    .addAnnotatedClass(Customer.class)
                    .addAnnotatedClass(PurchaseOrder.class)
                    .buildMetadata()
                    .buildSessionFactory();
        } catch (RuntimeException e) {
            StandardServiceRegistryBuilder.destroy(registry);
            throw e;
        }
    }
}
