package org.atomicshards.hibernate.internal.boot;

import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.SettingsReader;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.metrics.Traffic;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.connection.ShardReachabilityCheck;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.MultiTenancySettings;
import org.hibernate.service.spi.ServiceContributor;

/**
 * Installs Atomic Shards into any Hibernate bootstrap (native, JPA, Spring) whose settings contain
 * {@code atomicshards.shards}: reads and validates the settings, and provides the shard connection provider and the
 * shard-context tenant resolver, after proving every shard reachable (unless
 * {@code atomicshards.boot_connection_check=false}). Hibernate's schema actions are taken over, because Hibernate
 * would run them on one shard only; the runtime runs them on every shard. Does nothing for other bootstraps. The shard and catalog passwords
 * are removed from the settings once read, and the URLs replaced by their form without credentials, so no
 * password reaches Hibernate's settings, its settings log or {@code SessionFactory.getProperties()}.
 */
public final class AtomicShardsServiceContributor implements ServiceContributor {

    private static final List<String> SCHEMA_ACTION_SETTINGS = List.of(
            AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "javax.persistence.schema-generation.database.action",
            AvailableSettings.HBM2DDL_AUTO);

    @Override
    public void contribute(StandardServiceRegistryBuilder builder) {
        Map<String, Object> settings = builder.getSettings();
        if (!SettingsReader.isConfigured(settings) || settings.get(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER) != null) {
            return;
        }
        for (String key : SCHEMA_ACTION_SETTINGS) {
            Object action = settings.remove(key);
            if (action != null && !settings.containsKey(SettingsReader.SCHEMA_ACTION)) {
                settings.put(SettingsReader.SCHEMA_ACTION, action.toString());
            }
        }
        ShardingConfig config = SettingsReader.read(settings);
        // Hibernate logs its settings at DEBUG and returns them from getProperties(), masking only its own password
        // keys: our passwords (as settings or inside URLs) live in the validated config from here on and must not
        // reach the registry.
        SettingsReader.scrub(settings);
        if (config.bootConnectionCheck()) {
            ShardReachabilityCheck.run(config.topology(), config.connectionTimeoutMillis());
        }
        ShardingRuntime runtime = new ShardingRuntime(config, metricsTrackerFactory(settings),
                ShardMetrics.from(settings), Traffic.from(settings, config.topology().virtualShards()));
        builder.applySetting(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER, runtime.connectionProvider());
        builder.applySetting(MultiTenancySettings.MULTI_TENANT_IDENTIFIER_RESOLVER, runtime.tenantResolver());
        builder.applySetting(AvailableSettings.CONNECTION_PROVIDER_DISABLES_AUTOCOMMIT, "true");
        builder.addInitiator(GuardedJdbcServices.initiator(runtime.bulkWriteGuard(), runtime.queryReadGuard()));
    }

    private static MetricsTrackerFactory metricsTrackerFactory(Map<String, Object> settings) {
        Object value = settings.get(ShardingSettings.POOL_METRICS_TRACKER_FACTORY);
        if (value == null || value instanceof MetricsTrackerFactory) {
            return (MetricsTrackerFactory) value;
        }
        throw new ShardConfigurationException("Setting '" + ShardingSettings.POOL_METRICS_TRACKER_FACTORY
                + "' has a value of type " + value.getClass().getName() + ". Fix: pass an instance of "
                + MetricsTrackerFactory.class.getName() + ", e.g. new MicrometerMetricsTrackerFactory(registry)");
    }
}
