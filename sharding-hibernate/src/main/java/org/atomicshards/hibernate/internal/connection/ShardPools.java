package org.atomicshards.hibernate.internal.connection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.Topology;

/**
 * One HikariCP pool per physical shard, named {@code atomicshards-<factory>-<shard>}, started on first use. The
 * pools' maximum sizes were validated at boot against the bound on total connections.
 */
public final class ShardPools implements AutoCloseable {

    private final Topology topology;
    private final String poolPrefix;
    private final long connectionTimeoutMillis;
    private final MetricsTrackerFactory metricsTrackerFactory;
    private final Map<ShardId, HikariDataSource> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public ShardPools(Topology topology, String factoryName, long connectionTimeoutMillis) {
        this(topology, factoryName, connectionTimeoutMillis, null);
    }

    /** @param metricsTrackerFactory given to every pool so it reports metrics under its pool name; null for none */
    public ShardPools(Topology topology, String factoryName, long connectionTimeoutMillis,
                      MetricsTrackerFactory metricsTrackerFactory) {
        this.metricsTrackerFactory = metricsTrackerFactory;
        this.topology = topology;
        this.poolPrefix = "atomicshards-" + factoryName + "-";
        this.connectionTimeoutMillis = connectionTimeoutMillis;
    }

    /**
     * A connection to {@code shard}, from its pool (started on first call).
     *
     * @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology
     * @throws ShardUnavailableException if the shard's database cannot be reached within the pool timeout
     */
    public Connection connection(ShardId shard) {
        return connection(shard, "Units of work on other shards are not affected");
    }

    /**
     * As {@link #connection(ShardId)}, for use while the session factory boots: a failure says the boot cannot go on
     * and how to fix it, not that other shards are unaffected.
     */
    public Connection connectionAtBoot(ShardId shard) {
        String prefix = ShardingSettings.SHARD_PREFIX + shard + ".";
        return connection(shard, "The session factory cannot boot without it. Fix: start its database or correct "
                + prefix + "url / " + prefix + "user / " + prefix + "password");
    }

    private Connection connection(ShardId shard, String consequence) {
        HikariDataSource pool = pool(shard);
        try {
            return pool.getConnection();
        } catch (SQLException e) {
            throw new ShardUnavailableException("Shard '" + shard + "' (" + Redaction.url(topology.shard(shard).url())
                    + ") is unavailable: no connection within " + connectionTimeoutMillis + " ms ("
                    + Redaction.url(e.getMessage()) + "). " + consequence, e);
        }
    }

    /** Whether {@code shard}'s pool has been started. */
    public boolean isStarted(ShardId shard) {
        return pools.containsKey(shard);
    }

    /** The started pool's name and size, or empty if it has not started; for diagnostics. */
    public Map<ShardId, HikariDataSource> startedPools() {
        return Map.copyOf(pools);
    }

    private HikariDataSource pool(ShardId shard) {
        HikariDataSource existing = pools.get(shard);
        if (existing != null) {
            return existing;
        }
        ShardSpec spec = topology.shard(shard);
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("The shard pools are closed");
            }
            return pools.computeIfAbsent(shard, id -> start(spec));
        }
    }

    private HikariDataSource start(ShardSpec spec) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolPrefix + spec.id());
        config.setJdbcUrl(spec.url());
        if (spec.user() != null) {
            config.setUsername(spec.user());
        }
        if (spec.password() != null) {
            config.setPassword(spec.password());
        }
        config.setMaximumPoolSize(spec.poolSize());
        config.setMinimumIdle(Math.min(1, spec.poolSize()));
        config.setConnectionTimeout(connectionTimeoutMillis);
        config.setAutoCommit(false);
        if (metricsTrackerFactory != null) {
            config.setMetricsTrackerFactory(metricsTrackerFactory);
        }
        // Do not fail pool creation when the database is down: the first getConnection reports it, naming the shard.
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    @Override
    public synchronized void close() {
        closed = true;
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }
}
