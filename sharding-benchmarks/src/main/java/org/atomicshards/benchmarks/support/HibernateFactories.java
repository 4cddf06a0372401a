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
import org.hibernate.cfg.MultiTenancySettings;
import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.connections.internal.DataSourceConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.AbstractDataSourceBasedMultiTenantConnectionProviderImpl;

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
        DataSourceConnectionProvider connections = new DataSourceConnectionProvider();
        connections.setDataSource(dataSource);
        return build(AvailableSettings.CONNECTION_PROVIDER, connections, dialect, poolDisablesAutoCommit);
    }

    /**
     * As {@link #build(DataSource, Class, boolean)} on a pool without auto-commit, but with Hibernate's multi-tenancy
     * switched on: a multi-tenant connection provider whose only tenant, {@code tenant}, is {@code dataSource}.
     * Sessions must be opened for that tenant.
     */
    public static SessionFactory buildMultiTenant(DataSource dataSource, String tenant) {
        return build(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER, new OneTenant(dataSource, tenant), null,
                true);
    }

    private static SessionFactory build(String providerSetting, Object provider, Class<? extends Dialect> dialect,
                                        boolean poolDisablesAutoCommit) {
        HIBERNATE_LOG.setLevel(Level.WARNING);
        StandardServiceRegistryBuilder settings = new StandardServiceRegistryBuilder()
                .applySetting(providerSetting, provider)
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

    /** A multi-tenant connection provider with one tenant. */
    private static final class OneTenant extends AbstractDataSourceBasedMultiTenantConnectionProviderImpl<String> {

        private static final long serialVersionUID = 1L;

        private final transient DataSource dataSource;
        private final String tenant;

        private OneTenant(DataSource dataSource, String tenant) {
            this.dataSource = dataSource;
            this.tenant = tenant;
        }

        @Override
        protected DataSource selectAnyDataSource() {
            return dataSource;
        }

        @Override
        protected DataSource selectDataSource(String tenantIdentifier) {
            if (!tenant.equals(tenantIdentifier)) {
                throw new IllegalArgumentException("Unknown tenant '" + tenantIdentifier + "'; the only one is '"
                        + tenant + "'");
            }
            return dataSource;
        }
    }
}
