package org.atomicshards.hibernate.internal.connection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.Topology;

/**
 * The boot check of decision 8 ("an unreachable database fails at start"): opens one plain JDBC connection to every
 * shard and closes it again, without starting the (lazy) shard pools. Messages name the shard and its URL with
 * credentials redacted, never a user's password.
 */
public final class ShardReachabilityCheck {

    private static final int MAX_PARALLEL_ATTEMPTS = 4;

    private ShardReachabilityCheck() {
    }

    /**
     * Connects to every shard of {@code topology}, a few at a time, each attempt bounded by {@code timeoutMillis}.
     *
     * @throws ShardUnavailableException naming the first shard (in topology order) that could not be reached
     */
    public static void run(Topology topology, long timeoutMillis) {
        List<ShardSpec> specs = topology.shardIds().stream().map(topology::shard).toList();
        ExecutorService attempts = Executors.newFixedThreadPool(Math.min(MAX_PARALLEL_ATTEMPTS, specs.size()), task -> {
            Thread thread = new Thread(task, "atomicshards-boot-check");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<?>> results = new ArrayList<>();
            for (ShardSpec spec : specs) {
                results.add(attempts.submit(() -> {
                    connectAndClose(spec);
                    return null;
                }));
            }
            for (int i = 0; i < specs.size(); i++) {
                await(specs.get(i), results.get(i), timeoutMillis);
            }
        } finally {
            attempts.shutdownNow();
        }
    }

    @SuppressWarnings("try") // the connection is opened only to be closed
    private static void connectAndClose(ShardSpec spec) throws SQLException {
        Properties credentials = new Properties();
        if (spec.user() != null) {
            credentials.setProperty("user", spec.user());
        }
        if (spec.password() != null) {
            credentials.setProperty("password", spec.password());
        }
        try (Connection ignored = DriverManager.getConnection(spec.url(), credentials)) {
            // Opening the connection is the check.
        }
    }

    private static void await(ShardSpec spec, Future<?> result, long timeoutMillis) {
        try {
            // The attempts run in parallel, so one shard's wait also covers the others that started with it.
            result.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw unavailable(spec, Redaction.url(String.valueOf(e.getCause().getMessage())), e.getCause());
        } catch (TimeoutException e) {
            throw unavailable(spec, "no connection within " + timeoutMillis + " ms", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable(spec, "interrupted while connecting", e);
        }
    }

    private static ShardUnavailableException unavailable(ShardSpec spec, String reason, Throwable cause) {
        String prefix = ShardingSettings.SHARD_PREFIX + spec.id() + ".";
        String message = "Shard '" + spec.id() + "' (" + Redaction.url(spec.url()) + ") is unavailable at boot: "
                + reason + ". Fix: start its database or correct " + prefix + "url / " + prefix + "user / " + prefix
                + "password; to boot without this check, set " + ShardingSettings.BOOT_CONNECTION_CHECK + "=false";
        return cause == null ? new ShardUnavailableException(message) : new ShardUnavailableException(message, cause);
    }
}
