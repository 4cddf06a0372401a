package org.atomicshards.spring.boot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardingSettings;
import org.hibernate.cfg.AvailableSettings;

/** Translates {@link AtomicShardsProperties} into the runtime's {@link ShardingSettings} properties. */
final class SettingsMapper {

    private SettingsMapper() {
    }

    static Map<String, Object> toSettings(AtomicShardsProperties properties) {
        Map<String, Object> settings = new LinkedHashMap<>(properties.getProperties());
        settings.put(ShardingSettings.SHARDS, properties.getShards().stream().map(AtomicShardsProperties.Shard::getId)
                .collect(Collectors.joining(",")));
        for (AtomicShardsProperties.Shard shard : properties.getShards()) {
            String prefix = ShardingSettings.SHARD_PREFIX + shard.getId() + ".";
            settings.put(prefix + "url", shard.getUrl());
            putIfSet(settings, prefix + "user", shard.getUsername());
            putIfSet(settings, prefix + "password", shard.getPassword());
            putIfSet(settings, prefix + "pool_size", shard.getPoolSize());
            List<AtomicShardsProperties.Replica> replicas = shard.getReplicas();
            for (int r = 0; r < replicas.size(); r++) {
                AtomicShardsProperties.Replica replica = replicas.get(r);
                String replicaPrefix = ShardingSettings.SHARD_PREFIX + shard.getId() + ShardingSettings.REPLICA_INFIX
                        + "r" + (r + 1) + ".";
                settings.put(replicaPrefix + "url", replica.getUrl());
                putIfSet(settings, replicaPrefix + "user", replica.getUsername());
                putIfSet(settings, replicaPrefix + "password", replica.getPassword());
                putIfSet(settings, replicaPrefix + "pool_size", replica.getPoolSize());
            }
        }
        settings.put(ShardingSettings.REPLICA_READS, properties.getReplicas().isReadOnlyWork());
        settings.put(ShardingSettings.REPLICA_MAX_LAG, properties.getReplicas().getMaxLag().toMillis());
        settings.put(ShardingSettings.REPLICA_READ_YOUR_WRITES, properties.getReplicas().isReadYourWrites());
        settings.put(ShardingSettings.REPLICA_READ_YOUR_WRITES_WAIT,
                properties.getReplicas().getReadYourWritesWait().toMillis());
        settings.put(ShardingSettings.VIRTUAL_SHARDS, properties.getVirtualShards());
        putIfSet(settings, ShardingSettings.VIRTUAL_SHARD_MAP, properties.getVirtualShardMap());
        putIfSet(settings, ShardingSettings.DEFAULT_SHARD, properties.getDefaultShard());
        putIfSet(settings, ShardingSettings.CATALOG_URL, properties.getCatalog().getUrl());
        putIfSet(settings, ShardingSettings.CATALOG_USER, properties.getCatalog().getUsername());
        putIfSet(settings, ShardingSettings.CATALOG_PASSWORD, properties.getCatalog().getPassword());
        putIfSet(settings, ShardingSettings.CATALOG_SCHEMA, properties.getCatalog().getSchema());
        if (properties.getCatalog().getConnectionTimeout() != null) {
            settings.put(ShardingSettings.CATALOG_CONNECTION_TIMEOUT,
                    properties.getCatalog().getConnectionTimeout().toMillis());
        }
        if (properties.getCatalog().getLockTimeout() != null) {
            settings.put(ShardingSettings.CATALOG_LOCK_TIMEOUT, properties.getCatalog().getLockTimeout().toMillis());
        }
        if (properties.getCatalog().getRefreshInterval() != null) {
            settings.put(ShardingSettings.CATALOG_REFRESH_INTERVAL,
                    properties.getCatalog().getRefreshInterval().toMillis());
        }
        if (properties.getCatalog().isSingleInstance()) {
            settings.put(ShardingSettings.CATALOG_SINGLE_INSTANCE, true);
        }
        putIfSet(settings, ShardingSettings.POOL_SIZE, properties.getPool().getSize());
        putIfSet(settings, ShardingSettings.POOL_MAX_TOTAL, properties.getPool().getMaxTotal());
        putIfSet(settings, ShardingSettings.POOL_MIN_IDLE, properties.getPool().getMinIdle());
        if (properties.getPool().getIdleTimeout() != null) {
            settings.put(ShardingSettings.POOL_IDLE_TIMEOUT, properties.getPool().getIdleTimeout().toMillis());
        }
        if (properties.getPool().getConnectionTimeout() != null) {
            settings.put(ShardingSettings.POOL_CONNECTION_TIMEOUT, properties.getPool().getConnectionTimeout().toMillis());
        }
        if (properties.getPool().getSocketTimeout() != null) {
            settings.put(ShardingSettings.POOL_SOCKET_TIMEOUT, properties.getPool().getSocketTimeout().toMillis());
        }
        if (properties.getTransactionTimeout() != null) {
            settings.put(ShardingSettings.TRANSACTION_TIMEOUT, properties.getTransactionTimeout().toMillis());
        }
        putIfSet(settings, ShardingSettings.SNOWFLAKE_WORKER, properties.getSnowflakeWorkerId());
        putIfSet(settings, ShardingSettings.SEQUENCE_BLOCK_SIZE, properties.getSequenceBlockSize());
        settings.put(ShardingSettings.MODEL_CHECK, properties.isModelCheck());
        settings.put(ShardingSettings.BOOT_CONNECTION_CHECK, properties.isBootConnectionCheck());
        properties.getUnits().forEach((unit, policy) -> unitSettings(policy)
                .forEach((option, value) -> settings.put(ShardingSettings.UNIT_PREFIX + unit + "." + option, value)));
        AtomicShardsProperties.FanOut fanOut = properties.getFanOut();
        settings.put(FanOutSettings.SETTINGS, FanOutSettings.builder().parallelism(fanOut.getParallelism())
                .timeout(fanOut.getTimeout()).policy(fanOut.getPolicy()).fetchSize(fanOut.getFetchSize())
                .replicas(fanOut.isReplicas()).build());
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION,
                properties.getSchemaAction().toLowerCase(Locale.ROOT));
        return settings;
    }

    /** One unit's settings without the {@code atomicshards.unit.<unit>.} prefix. */
    static Map<String, Object> unitSettings(AtomicShardsProperties.Unit unit) {
        Map<String, Object> settings = new LinkedHashMap<>();
        putIfSet(settings, "policy", unit.getPolicy());
        putIfSet(settings, "key_generation", unit.getKeyGeneration());
        putIfSet(settings, "access", unit.getAccess());
        putIfSet(settings, "combine", unit.getCombine());
        putIfSet(settings, "ranges", unit.getRanges());
        putIfSet(settings, "ring_nodes", unit.getRingNodes());
        unit.getOptions().forEach((option, value) -> putIfSet(settings, option.replace('-', '_'), value));
        return settings;
    }

    private static void putIfSet(Map<String, Object> settings, String key, Object value) {
        if (value != null) {
            settings.put(key, value instanceof Enum<?> e ? e.name() : value);
        }
    }
}
