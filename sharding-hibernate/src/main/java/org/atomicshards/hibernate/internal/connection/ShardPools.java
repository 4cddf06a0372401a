package org.atomicshards.hibernate.internal.connection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.IdleConnections;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ReplicaSpec;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.config.Topology;

/**
 * One HikariCP pool per physical shard, named {@code atomicshards-<factory>-<shard>}, started on first use. The
 * pools' maximum sizes of the configured shards were validated at boot against the bound on total connections; a
 * shard added at run time gets a pool of its own once its connection settings are in the {@link Topology}, and a
 * retired shard's pool is closed by {@link #retire} once its work in flight has ended.
 *
 * <p>Many shards stay cheap: all pools run their housekeeping on one shared scheduler ({@link PoolHousekeeping},
 * {@value PoolHousekeeping#THREADS} threads, not one per pool), and keep at most the {@link IdleConnections} minimum
 * open while idle. {@link #close()} closes every pool and then the scheduler, and returns once its threads have ended.
 *
 * <p>A shard's read replicas get pools of their own ({@link #replicaConnection}), with the same settings, started
 * on first use; their sizes are not counted against the bound on total connections.
 *
 * <p>An H2 in-memory shard whose URL does not set {@code DB_CLOSE_DELAY} lives as long as its pool: an
 * {@link InMemoryDatabaseKeeper} holds one connection to it from just before the pool starts until just after the
 * pool is closed (by {@link #close()} or {@link #retire}).
 */
public final class ShardPools implements AutoCloseable {

    private final Topology topology;
    private final String poolPrefix;
    private final long connectionTimeoutMillis;
    private final ShardTimeouts timeouts;
    private final IdleConnections idleConnections;
    private final MetricsTrackerFactory metricsTrackerFactory;
    private final PoolHousekeeping housekeeping;
    private final InMemoryDatabaseKeeper inMemoryDatabases = new InMemoryDatabaseKeeper();
    private final Map<ShardId, HikariDataSource> pools = new ConcurrentHashMap<>();
    private final Map<ShardId, Object> startLocks = new ConcurrentHashMap<>();
    private final Map<String, HikariDataSource> replicaPools = new ConcurrentHashMap<>();
    /** The replica connections handed out, with their pool: a discarded one must leave its own pool. */
    private final Map<Connection, HikariDataSource> lentReplicaConnections = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private ThreadPoolExecutor aborts;

    /**
     * @param timeouts the pool and driver time limits
     * @param idleConnections what each pool keeps open while idle
     * @param metricsTrackerFactory given to every pool so it reports metrics under its pool name; null for none
     */
    public ShardPools(Topology topology, String factoryName, ShardTimeouts timeouts, IdleConnections idleConnections,
                      MetricsTrackerFactory metricsTrackerFactory) {
        this.metricsTrackerFactory = metricsTrackerFactory;
        this.topology = topology;
        this.poolPrefix = "atomicshards-" + factoryName + "-";
        this.connectionTimeoutMillis = timeouts.connectionTimeoutMillis();
        this.timeouts = timeouts;
        this.idleConnections = idleConnections;
        this.housekeeping = new PoolHousekeeping(poolPrefix);
    }

    /** The time limits the pools and their drivers run with. */
    public ShardTimeouts timeouts() {
        return timeouts;
    }

    /**
     * Takes a connection of {@code shard}'s pool that is in an unknown state (its statement was abandoned, or it
     * failed like a dead connection) out of the pool for good and closes its socket at once, without waiting for the
     * database: a thread still blocked reading from it fails right away, and the pool opens a fresh connection
     * instead of ever handing this one out again. Never throws.
     */
    public void abort(ShardId shard, Connection connection) {
        // Socket first: the pool closes an evicted connection on its own thread, and a driver that finds the
        // connection busy there may try to end it over a new connection (MariaDB's KILL), into the silent network.
        try {
            Connection raw = connection.unwrap(Connection.class);
            if (DriverSockets.closeSocket(raw)) {
                // The driver's own abort still asks the server to end the statement (a KILL over a new
                // connection): useful on a healthy network, a connect timeout on a silent one, so not on this thread.
                aborts().execute(() -> abortQuietly(raw));
            }
            else {
                raw.abort(Runnable::run);
            }
        }
        catch (SQLException | RuntimeException ignored) {
            // already closed, or the driver cannot abort: the eviction below still keeps it out of the pool
        }
        discard(shard, connection);
    }

    private static void abortQuietly(Connection raw) {
        try {
            raw.abort(Runnable::run);
        }
        catch (SQLException | RuntimeException ignored) {
            // its socket is closed already: the server ends the session when it notices
        }
    }

    /** At most two background aborts at a time; more are dropped (their sockets are closed already). */
    private synchronized ThreadPoolExecutor aborts() {
        if (aborts == null) {
            aborts = new ThreadPoolExecutor(0, 2, 10, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, poolPrefix + "abort");
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.DiscardPolicy());
        }
        return aborts;
    }

    /**
     * Takes {@code connection} out of {@code shard}'s pool for good: closed at once if the pool holds it (given back
     * already), else as soon as its holder gives it back (as {@link #abort} does, without aborting). The pool opens
     * another when it needs one. Never throws.
     */
    public void discard(ShardId shard, Connection connection) {
        HikariDataSource replicaPool = lentReplicaConnections.remove(connection);
        HikariDataSource pool = replicaPool != null ? replicaPool : pools.get(shard);
        if (pool != null) {
            try {
                pool.evictConnection(connection);
            }
            catch (RuntimeException ignored) {
                // not one of this pool's connections any more
            }
        }
    }

    /**
     * After one of {@code shard}'s connections was found dead: closes the pool's idle connections (likely dead too,
     * e.g. after a database restart) and retires the busy ones when they come back, so that the next unit of work
     * gets a freshly opened connection instead of failing on another dead one.
     */
    public void retireConnections(ShardId shard) {
        HikariDataSource pool = pools.get(shard);
        if (pool != null && pool.getHikariPoolMXBean() != null) {
            pool.getHikariPoolMXBean().softEvictConnections();
        }
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
            if (H2ResultReuse.refused(e)) {
                throw new ShardUnavailableException("Shard '" + shard + "' (" + Redaction.url(topology.shard(shard)
                        .url()) + ") cannot be used: " + H2ResultReuse.refusal(ShardingSettings.SHARD_PREFIX + shard
                        + ".user") + ".", e);
            }
            String hint = topology.configuredShardIds().contains(shard) ? ""
                    : " If the database is up: " + topology.connectionSettingsHint(shard) + ".";
            throw new ShardUnavailableException("Shard '" + shard + "' (" + Redaction.url(topology.shard(shard).url())
                    + ") is unavailable: no connection within " + connectionTimeoutMillis + " ms ("
                    + Redaction.url(e.getMessage()) + "). " + consequence + "." + hint, e);
        }
    }

    /**
     * Whether {@code shard}'s pool keeps connections open while nothing uses them ({@code min_idle} above 0); if not,
     * an idle connection closes once idle for the idle timeout, as long as nothing takes it. False for a shard no
     * longer in the topology.
     */
    public boolean keepsIdleConnections(ShardId shard) {
        return topology.find(shard).map(spec -> idleConnections.minIdleFor(spec.poolSize()) > 0).orElse(false);
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
        // One lock per shard, not one for all: starting a pool takes milliseconds (its threads, its first
        // connection), and a first fan-out over 256 shards would otherwise start them one at a time.
        synchronized (startLock(shard)) {
            ShardSpec spec = topology.shard(shard); // read under the shard's lock: retire() cannot interleave
            existing = pools.get(shard);
            if (existing != null) {
                return existing;
            }
            if (closed) {
                throw new IllegalStateException("The shard pools are closed");
            }
            inMemoryDatabases.keep(spec);
            HikariDataSource started = start(spec);
            pools.put(shard, started);
            if (closed) {
                // close() ran meanwhile and may not have seen this pool
                started.close();
                inMemoryDatabases.release(shard);
                throw new IllegalStateException("The shard pools are closed");
            }
            return started;
        }
    }

    /**
     * Closes the pool of a shard that left the topology, once the connections it has handed out are back (the
     * work in flight on it has ended) or {@code waitMillis} has passed; a connection still out then is closed with
     * the pool; its replicas' pools are closed with it. Call after the shard was removed from the {@link Topology}, so
     * no new connection is handed out.
     *
     * @return whether every connection came back in time
     */
    public boolean retire(ShardId shard, long waitMillis) {
        HikariDataSource pool;
        synchronized (startLock(shard)) {
            pool = pools.remove(shard);
        }
        if (pool == null) {
            closeReplicaPools(shard);
            return true;
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(waitMillis);
        boolean drained = true;
        try {
            while (pool.getHikariPoolMXBean() != null && pool.getHikariPoolMXBean().getActiveConnections() > 0) {
                if (System.nanoTime() >= deadline) {
                    drained = false;
                    break;
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        } finally {
            pool.close();
            inMemoryDatabases.release(shard);
            closeReplicaPools(shard);
        }
        return drained;
    }

    private void closeReplicaPools(ShardId shard) {
        synchronized (replicaPools) {
            replicaPools.entrySet().removeIf(entry -> {
                boolean ofShard = entry.getKey().startsWith(shard + "/");
                if (ofShard) {
                    entry.getValue().close();
                }
                return ofShard;
            });
        }
    }

    private Object startLock(ShardId shard) {
        return startLocks.computeIfAbsent(shard, id -> new Object());
    }

    private HikariDataSource start(ShardSpec spec) {
        return new HikariDataSource(config(poolPrefix + spec.id(), spec.url(), spec.user(), spec.password(),
                spec.poolSize(), connectionTimeoutMillis));
    }

    private HikariConfig config(String poolName, String url, String user, String password, int poolSize,
                                long connectionTimeout) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(idleConnections.minIdleFor(poolSize));
        config.setIdleTimeout(idleConnections.idleTimeoutMillis());
        config.setScheduledExecutor(housekeeping.executor());
        config.setConnectionTimeout(connectionTimeout);
        config.setValidationTimeout(ShardTimeouts.validationTimeoutFor(connectionTimeout));
        DriverTimeouts.apply(config, url, timeouts);
        H2ResultReuse.turnOff(config, url);
        config.setAutoCommit(false);
        if (metricsTrackerFactory != null) {
            config.setMetricsTrackerFactory(metricsTrackerFactory);
        }
        // Do not fail pool creation when the database is down: the first getConnection reports it, naming the shard.
        config.setInitializationFailTimeout(-1);
        return config;
    }

    /**
     * A connection of {@code replica}'s pool (named {@code atomicshards-<factory>-<shard>-replica-<name>}, started on
     * first use, read-only), within the replica timeout: a replica that is down costs a read that long before it
     * goes elsewhere. Give it back with {@link #releaseReplicaConnection}.
     *
     * @throws SQLException if there is none within the timeout
     */
    public Connection replicaConnection(ReplicaSpec replica) throws SQLException {
        HikariDataSource pool = replicaPools.get(replica.label());
        if (pool == null) {
            synchronized (replicaPools) {
                if (closed) {
                    throw new IllegalStateException("The shard pools are closed");
                }
                pool = replicaPools.computeIfAbsent(replica.label(), label -> {
                    HikariConfig config = config(poolPrefix + replica.shard() + "-replica-" + replica.name(),
                            replica.url(), replica.user(), replica.password(), replica.poolSize(),
                            replicaConnectionTimeoutMillis());
                    config.setReadOnly(true);
                    return new HikariDataSource(config);
                });
            }
        }
        Connection connection = pool.getConnection();
        lentReplicaConnections.put(connection, pool);
        return connection;
    }

    /** How long a read waits for a replica's connection: half the shards' connection timeout, at most a second. */
    private long replicaConnectionTimeoutMillis() {
        return Math.max(250, Math.min(1_000, connectionTimeoutMillis / 2));
    }

    /** Gives back a connection of {@link #replicaConnection}. Never throws. */
    public void releaseReplicaConnection(Connection connection) {
        lentReplicaConnections.remove(connection);
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // the pool retires a connection that fails to close
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (aborts != null) {
            aborts.shutdown();
        }
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
        synchronized (replicaPools) {
            replicaPools.values().forEach(HikariDataSource::close);
            replicaPools.clear();
        }
        inMemoryDatabases.close();
        housekeeping.close();
    }
}
