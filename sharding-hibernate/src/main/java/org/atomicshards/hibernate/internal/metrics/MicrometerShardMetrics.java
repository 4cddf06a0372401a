package org.atomicshards.hibernate.internal.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * {@link ShardMetrics} recorded in a Micrometer {@link MeterRegistry}; the only class that touches Micrometer, loaded
 * only when a registry is configured. Tag values are bounded: shard ids, unit and entity names, exception class
 * names, shard counts.
 */
final class MicrometerShardMetrics implements ShardMetrics {

    static final String UNIT_OF_WORK = "atomicshards.unit_of_work";
    static final String FANOUT = "atomicshards.fanout";
    static final String FANOUT_SHARD = "atomicshards.fanout.shard";
    static final String GUARD_REJECTIONS = "atomicshards.guard.rejections";
    static final String ID_ROUTING_PROBES = "atomicshards.id_routing.probes";
    static final String RESHARDING_ACTIVE = "atomicshards.resharding.operations.active";
    static final String RESHARDING_UNITS = "atomicshards.resharding.units.copied";
    static final String RESHARDING_ROWS = "atomicshards.resharding.rows.copied";
    static final String RESHARDING_WRITE_PAUSE = "atomicshards.resharding.write_pause";
    static final String RESHARDING_FAILED = "atomicshards.resharding.moves.failed";
    static final String CATALOG_OPERATIONS = "atomicshards.resharding.catalog.operations";
    static final String CATALOG_UNITS = "atomicshards.resharding.catalog.units.moved";
    static final String CATALOG_ROWS = "atomicshards.resharding.catalog.rows.moved";
    static final String REPLICA_READS = "atomicshards.replica.reads";
    static final String REPLICA_SKIPS = "atomicshards.replica.skipped";
    static final String REPLICA_LAG = "atomicshards.replica.lag";

    private final MeterRegistry registry;
    /** The timers of committed units by shard and unit: the common case skips building a meter id per unit. */
    private final Map<SuccessKey, Timer> successes = new ConcurrentHashMap<>();
    /** Moves running in this instance; registered lazily, with the first move, so idle factories add no meter. */
    private final AtomicInteger activeMoves = new AtomicInteger();
    private final AtomicBoolean activeMovesRegistered = new AtomicBoolean();
    /** The journal's unfinished operations as of the last refresh: operations, units and rows. */
    private final AtomicLongArray unfinished = new AtomicLongArray(3);
    private final AtomicBoolean unfinishedRegistered = new AtomicBoolean();
    /** The last lag each replica reported ({@code <shard>/<name>}), behind its gauge. */
    private final Map<String, AtomicLong> replicaLags = new ConcurrentHashMap<>();

    private MicrometerShardMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    static ShardMetrics of(Object registry) {
        if (!(registry instanceof MeterRegistry meters)) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.METER_REGISTRY + "' must be an "
                    + "io.micrometer.core.instrument.MeterRegistry instance, not a " + registry.getClass().getName()
                    + ". Fix: pass the application's MeterRegistry object");
        }
        return new MicrometerShardMetrics(meters);
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public void unitOfWork(ShardId shard, String unit, Throwable failure, long nanos) {
        if (failure == null) {
            successes.computeIfAbsent(new SuccessKey(shard, unit), key -> unitOfWorkTimer(shard, unit, null))
                    .record(nanos, TimeUnit.NANOSECONDS);
            return;
        }
        unitOfWorkTimer(shard, unit, failure).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer unitOfWorkTimer(ShardId shard, String unit, Throwable failure) {
        return Timer.builder(UNIT_OF_WORK)
                .description("Units of work: one shard, one local transaction, from session open to commit")
                .tag("shard", shard.name())
                .tag("unit", unit)
                .tag("outcome", outcome(failure))
                .tag("exception", exception(failure))
                .register(registry);
    }

    @Override
    public void fanOut(int shardsAsked, boolean pruned, boolean partial, Throwable failure, long nanos) {
        Timer.builder(FANOUT)
                .description("Fan-out queries, until every asked shard answered (or failed)")
                .tag("shards.asked", Integer.toString(shardsAsked))
                .tag("pruned", Boolean.toString(pruned))
                .tag("partial", Boolean.toString(partial))
                .tag("outcome", outcome(failure))
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void fanOutShard(ShardId shard, Throwable failure, long nanos) {
        Timer.builder(FANOUT_SHARD)
                .description("One shard's part of a fan-out query; the slowest shard shows in the max")
                .tag("shard", shard.name())
                .tag("outcome", outcome(failure))
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void replicaRead(ShardId shard, String replica) {
        Counter.builder(REPLICA_READS)
                .description("Reads that ran on a replica")
                .tag("shard", shard.name())
                .tag("replica", replica)
                .register(registry)
                .increment();
    }

    @Override
    public void replicaSkipped(ShardId shard, String replica, String reason) {
        Counter.builder(REPLICA_SKIPS)
                .description("Reads that skipped a replica (down, lagging, not replicating, behind a move)")
                .tag("shard", shard.name())
                .tag("replica", replica)
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    @Override
    public void replicaLag(ShardId shard, String replica, long lagMillis) {
        replicaLags.computeIfAbsent(shard + "/" + replica, label -> {
            AtomicLong lag = new AtomicLong();
            Gauge.builder(REPLICA_LAG, lag, AtomicLong::get)
                    .description("The lag the replica last reported before a read, in milliseconds (-1: unknown)")
                    .baseUnit("milliseconds")
                    .tag("shard", shard.name())
                    .tag("replica", replica)
                    .register(registry);
            return lag;
        }).set(lagMillis);
    }

    @Override
    public void guardRejection(RuntimeException rejection) {
        Counter.builder(GUARD_REJECTIONS)
                .description("Writes rejected by a guard before anything was written")
                .tag("exception", rejection.getClass().getSimpleName())
                .register(registry)
                .increment();
    }

    @Override
    public void idRoutingProbe(String entity) {
        Counter.builder(ID_ROUTING_PROBES)
                .description("finds by an id that does not name its shard, so the shards were asked")
                .tag("entity", entity)
                .register(registry)
                .increment();
    }

    @Override
    public void moveStarted(ShardId target) {
        if (activeMovesRegistered.compareAndSet(false, true)) {
            Gauge.builder(RESHARDING_ACTIVE, activeMoves, AtomicInteger::get)
                    .description("Resharding moves (move, split, merge, drain, rebalance, resume) running in this "
                            + "instance")
                    .register(registry);
        }
        activeMoves.incrementAndGet();
    }

    @Override
    public void moveEnded(ShardId target, Throwable failure) {
        activeMoves.decrementAndGet();
        if (failure != null) {
            Counter.builder(RESHARDING_FAILED)
                    .description("Resharding moves that stopped part way (resumable with ShardAdmin.resume())")
                    .tag("target", target.name())
                    .tag("exception", exception(failure))
                    .register(registry)
                    .increment();
        }
    }

    @Override
    public void moveCopied(ShardId target, long units, long rows) {
        Counter.builder(RESHARDING_UNITS)
                .description("Units copied by resharding moves (a unit copied again in catch-up counts again)")
                .baseUnit("units")
                .tag("target", target.name())
                .register(registry)
                .increment(units);
        Counter.builder(RESHARDING_ROWS)
                .description("Rows copied by resharding moves")
                .baseUnit("rows")
                .tag("target", target.name())
                .register(registry)
                .increment(rows);
    }

    @Override
    public void moveWritePause(ShardId target, long nanos) {
        Timer.builder(RESHARDING_WRITE_PAUSE)
                .description("How long writes to a batch of moving virtual shards waited, freeze to promotion")
                .tag("target", target.name())
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void unfinishedOperations(int operations, long units, long rows) {
        unfinished.set(0, operations);
        unfinished.set(1, units);
        unfinished.set(2, rows);
        if (unfinishedRegistered.compareAndSet(false, true)) {
            Gauge.builder(CATALOG_OPERATIONS, unfinished, u -> u.get(0))
                    .description("Resharding operations unfinished in the catalog's journal, run by any instance or "
                            + "the command-line tool (read at each topology refresh)")
                    .register(registry);
            Gauge.builder(CATALOG_UNITS, unfinished, u -> u.get(1))
                    .description("Units moved so far by the unfinished operations, as their journal records them")
                    .baseUnit("units")
                    .register(registry);
            Gauge.builder(CATALOG_ROWS, unfinished, u -> u.get(2))
                    .description("Rows moved so far by the unfinished operations, as their journal records them")
                    .baseUnit("rows")
                    .register(registry);
        }
    }

    private record SuccessKey(ShardId shard, String unit) {
    }

    private static String outcome(Throwable failure) {
        return failure == null ? "success" : "error";
    }

    private static String exception(Throwable failure) {
        return failure == null ? "none" : failure.getClass().getSimpleName();
    }
}
