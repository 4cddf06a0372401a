package org.atomicshards.spring.boot.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchemaVersion;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.hibernate.Session;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The shards' health ({@code atomicShards} in Spring Boot's health endpoint). Every call asks, in parallel and
 * bounded by {@link ShardsHealthProperties#getTimeout()}:
 * <ul>
 *   <li>each active shard: a connection from its pool, checked with {@code Connection.isValid}, in a read-only
 *       session (the way the application reaches the shard);</li>
 *   <li>the catalog: the resharding journal's unfinished operations, which are listed;</li>
 *   <li>with {@code atomicshards.migrations.tool} set: each shard's schema version from the application's
 *       migrations (its history table), listed with whether they differ. Differing versions do not make the
 *       application DOWN: a rolling migration passes through them.</li>
 * </ul>
 * Status: DOWN when no shard answers, or when one does not and {@code atomicshards.health.require-all-shards} is set,
 * or when the catalog does not and {@code atomicshards.health.require-catalog} is set; else {@link #DEGRADED} when a
 * read replica is not fit for reads (lagging beyond the maximum, down, or promoted), each replica listed with its lag;
 * UP otherwise, with every part in the details. Errors are shown without credentials.
 */
public final class ShardsHealthIndicator implements HealthIndicator, DisposableBean {

    /**
     * The status while every shard answers but a read replica is lagging, down or no longer replicating: reads still
     * succeed (on the primaries), with less capacity.
     */
    public static final Status DEGRADED = new Status("DEGRADED");

    private final ShardedSessionFactory shards;
    private final ShardsHealthProperties properties;
    private final ExecutorService probes;

    public ShardsHealthIndicator(ShardedSessionFactory shards, ShardsHealthProperties properties) {
        this.shards = shards;
        this.properties = properties;
        AtomicInteger threads = new AtomicInteger();
        this.probes = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "atomicshards-health-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Health health() {
        long deadline = System.nanoTime() + properties.getTimeout().toNanos();
        Map<ShardId, Future<Boolean>> answers = new LinkedHashMap<>();
        for (ShardId shard : shards.shards()) {
            answers.put(shard, probes.submit(() -> probe(shard)));
        }
        Future<List<OperationStatus>> operations = probes.submit(() -> shards.admin().operations());
        Future<List<ShardSchemaVersion>> schemaVersions = probes.submit(() -> shards.schema().versions());
        Future<List<ReplicaStatus>> replicas = probes.submit(() -> shards.admin().replicas());

        Map<String, Object> shardDetails = new LinkedHashMap<>();
        int down = 0;
        for (Map.Entry<ShardId, Future<Boolean>> answer : answers.entrySet()) {
            Map<String, Object> detail = new LinkedHashMap<>();
            String error = await(answer.getValue(), deadline);
            if (error == null && !Boolean.TRUE.equals(get(answer.getValue()))) {
                error = "the connection is not valid";
            }
            detail.put("status", error == null ? "UP" : "DOWN");
            detail.put("virtualShards", shards.directory().virtualShardsOf(answer.getKey()).size());
            if (error != null) {
                detail.put("error", error);
                down++;
            }
            shardDetails.put(answer.getKey().name(), detail);
        }

        Map<String, Object> catalog = new LinkedHashMap<>();
        String catalogError = await(operations, deadline);
        catalog.put("status", catalogError == null ? "UP" : "DOWN");
        catalog.put("mapVersion", shards.directory().version());
        catalog.put("virtualShards", shards.directory().virtualShards());
        if (catalogError != null) {
            catalog.put("error", catalogError);
        }

        boolean isDown = down == answers.size() || (down > 0 && properties.isRequireAllShards())
                || (catalogError != null && properties.isRequireCatalog());
        String replicasError = await(replicas, deadline);
        Map<String, Object> replicaDetails = new LinkedHashMap<>();
        if (replicasError == null) {
            get(replicas).forEach(replica -> replicaDetails.put(replica.shard() + "/" + replica.name(),
                    describe(replica)));
        }
        boolean degraded = replicasError != null || get(replicas).stream().anyMatch(replica -> !replica.up());
        Health.Builder health = isDown ? Health.down() : degraded ? Health.status(DEGRADED) : Health.up();
        health.withDetail("shards", shardDetails).withDetail("shardsDown", down).withDetail("catalog", catalog);
        if (replicasError != null) {
            health.withDetail("replicasError", replicasError);
        } else if (!replicaDetails.isEmpty()) {
            health.withDetail("replicas", replicaDetails);
        }
        if (catalogError == null) {
            health.withDetail("operationsInProgress", get(operations).stream().map(ShardsHealthIndicator::describe).toList());
        }
        String versionsError = await(schemaVersions, deadline);
        if (versionsError != null) {
            health.withDetail("schemaVersionsError", versionsError);
        } else if (!get(schemaVersions).isEmpty()) {
            Map<String, Object> versions = new LinkedHashMap<>();
            get(schemaVersions).forEach(v -> versions.put(v.shard().name(), v.error() != null
                    ? "unreadable: " + v.error() : v.version()));
            health.withDetail("schemaVersions", versions)
                    .withDetail("schemaVersionsDiffer", ShardSchemaVersion.differ(get(schemaVersions)));
        }
        return health.build();
    }

    private static Map<String, Object> describe(ReplicaStatus replica) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("status", replica.state());
        if (replica.lagMillis() >= 0) {
            detail.put("lagMillis", replica.lagMillis());
        }
        if (!replica.detail().isEmpty()) {
            detail.put("error", replica.detail());
        }
        return detail;
    }

    private boolean probe(ShardId shard) {
        int seconds = (int) Math.max(1, properties.getTimeout().toSeconds());
        try (Session session = shards.openSession(shard)) { // the primary, even where read-only work uses replicas
            return session.doReturningWork(connection -> connection.isValid(seconds));
        }
    }

    /** Null when {@code future} completed normally by {@code deadline}; otherwise what went wrong, on one line. */
    private String await(Future<?> future, long deadline) {
        try {
            future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return null;
        } catch (TimeoutException e) {
            future.cancel(true);
            return "no answer within " + properties.getTimeout().toMillis() + " ms";
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
            return Redaction.url(message.replaceAll("\\s*\\R\\s*", " ").strip());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static <T> T get(Future<T> done) {
        try {
            return done.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("only called on a future that completed normally", e);
        }
    }

    private static Map<String, Object> describe(OperationStatus operation) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("id", operation.id());
        detail.put("kind", operation.kind());
        detail.put("target", operation.target().name());
        detail.put("virtualShards", operation.virtualShards());
        detail.put("state", operation.state());
        detail.put("batch", operation.batch());
        detail.put("owner", operation.owner());
        detail.put("leaseUntil", operation.leaseUntil() == null ? null : operation.leaseUntil().toString());
        if (operation.error() != null) {
            detail.put("error", operation.error());
        }
        return detail;
    }

    @Override
    public void destroy() {
        probes.shutdownNow();
    }
}
