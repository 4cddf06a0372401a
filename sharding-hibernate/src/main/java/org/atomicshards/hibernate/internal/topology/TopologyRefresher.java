package org.atomicshards.hibernate.internal.topology;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.CatalogException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;

/**
 * Keeps one instance's topology in step with the catalog: every refresh interval, on one daemon thread, it takes
 * over the shards, map versions and ring members other instances wrote ({@link CachedShardDirectory#refreshTopology}),
 * closes the pools of retired shards once their work has ended, and checks that this instance can connect to every
 * shard that holds rows. A problem is logged once (at ERROR when this instance cannot reach a shard that holds rows,
 * naming the shard and the settings to add), not at every interval; a catalog outage is logged and retried.
 */
public final class TopologyRefresher implements AutoCloseable {

    private static final Logger LOG = System.getLogger(TopologyAdmin.LOGGER);

    private final CachedShardDirectory directory;
    private final Topology topology;
    private final ShardPools pools;
    private final long retireWaitMillis;
    private final Runnable afterRefresh;
    private final Set<ShardId> reachable = new HashSet<>();
    private Set<String> reported = Set.of();
    private ScheduledExecutorService executor;

    /**
     * @param retireWaitMillis how long a retired shard's pool waits for its work in flight before it closes
     * @param afterRefresh     run after each refresh (reading more of the catalog, say)
     */
    public TopologyRefresher(CachedShardDirectory directory, Topology topology, ShardPools pools,
                             long retireWaitMillis, Runnable afterRefresh) {
        this.directory = directory;
        this.topology = topology;
        this.pools = pools;
        this.retireWaitMillis = retireWaitMillis;
        this.afterRefresh = afterRefresh;
    }

    /** Starts refreshing every {@code intervalMillis}; 0 never. */
    public synchronized void start(long intervalMillis, String factoryName) {
        if (intervalMillis <= 0 || executor != null) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "atomicshards-" + factoryName + "-topology");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(this::refreshQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            report(Set.of("catalog: " + e.getMessage()), Level.WARNING);
        }
    }

    /**
     * One refresh, now.
     *
     * @throws CatalogException if the catalog cannot be read (what is in memory stays in force)
     */
    public synchronized CachedShardDirectory.Refresh refresh() {
        CachedShardDirectory.Refresh refresh = directory.refreshTopology();
        refresh.added().forEach(id -> LOG.log(Level.INFO, () -> "Took over shard '" + id
                + "', added by another instance; it is reached with " + redactedUrl(id)));
        for (ShardId retired : refresh.retired()) {
            reachable.remove(retired);
            LOG.log(Level.INFO, () -> "Shard '" + retired + "' was retired in the catalog; closing its pool");
            pools.retire(retired, retireWaitMillis);
        }
        Set<String> problems = new HashSet<>(refresh.problems());
        for (ShardId shard : directory.dataShards()) {
            if (!reachable.contains(shard) && !topology.configuredShardIds().contains(shard)) {
                String problem = unreachable(shard);
                if (problem == null) {
                    reachable.add(shard);
                } else {
                    problems.add(problem);
                }
            }
        }
        report(problems, Level.ERROR);
        afterRefresh.run();
        return refresh;
    }

    private String redactedUrl(ShardId id) {
        return topology.find(id).map(spec -> org.atomicshards.hibernate.internal.config.Redaction.url(spec.url()))
                .orElse("?");
    }

    /** Null if a connection to {@code shard} opens, else what to tell the operator. */
    private String unreachable(ShardId shard) {
        try (Connection ignored = pools.connection(shard)) {
            return null;
        } catch (ShardUnavailableException | SQLException e) {
            // the pool's message names the shard, its URL and the settings to add
            return "Shard '" + shard + "' holds rows but this instance cannot connect to it; units of work and "
                    + "fan-outs that need it fail until it can: "
                    + org.atomicshards.hibernate.internal.config.Redaction.url(String.valueOf(e.getMessage()));
        }
    }

    private void report(Set<String> problems, Level level) {
        Set<String> fresh = new HashSet<>(problems);
        fresh.removeAll(reported);
        reported = Set.copyOf(problems);
        List.copyOf(fresh).forEach(problem -> LOG.log(level, problem));
    }

    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
