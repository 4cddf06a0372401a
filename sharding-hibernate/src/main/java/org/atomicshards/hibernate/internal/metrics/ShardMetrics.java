package org.atomicshards.hibernate.internal.metrics;

import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * What the runtime reports to a meter registry. Callers check {@link #enabled()} before reading the clock, so the
 * no-op implementation costs one interface call. Implementations are thread-safe.
 */
public interface ShardMetrics {

    /** Records nothing. */
    ShardMetrics NONE = new ShardMetrics() {
    };

    /** Whether anything is recorded (callers skip {@code System.nanoTime()} otherwise). */
    default boolean enabled() {
        return false;
    }

    /** A unit of work of {@code unit} that ran on {@code shard} for {@code nanos}; {@code failure} null on commit. */
    default void unitOfWork(ShardId shard, String unit, Throwable failure, long nanos) {
    }

    /**
     * A fan-out query that asked {@code shardsAsked} shards (fewer than all when {@code pruned}), with
     * {@code partial} results when a shard failed under a partial-results policy; {@code failure} null when it ran.
     */
    default void fanOut(int shardsAsked, boolean pruned, boolean partial, Throwable failure, long nanos) {
    }

    /** One shard's part of a fan-out query: its statement and first fetch (all rows when the result is read whole). */
    default void fanOutShard(ShardId shard, Throwable failure, long nanos) {
    }

    /** A write rejected by a guard before anything was written. */
    default void guardRejection(RuntimeException rejection) {
    }

    /** A {@code find} whose id does not name its shard, so the shards were asked. */
    default void idRoutingProbe(String entity) {
    }

    /** A move (of a move, split, merge, drain or rebalance) into {@code target} started or was resumed here. */
    default void moveStarted(ShardId target) {
    }

    /** The move into {@code target} that {@link #moveStarted} announced ended; {@code failure} null when it finished. */
    default void moveEnded(ShardId target, Throwable failure) {
    }

    /** A chunk of {@code units} units and their {@code rows} rows copied to {@code target} (catch-up copies included). */
    default void moveCopied(ShardId target, long units, long rows) {
    }

    /** Writes to a batch of virtual shards moving to {@code target} waited {@code nanos} (freeze to promotion). */
    default void moveWritePause(ShardId target, long nanos) {
    }

    /**
     * What the catalog's move journal records as unfinished, read at a topology refresh: {@code operations} of any
     * instance or of the command-line tool, with the {@code units} and {@code rows} their finished batches moved.
     */
    default void unfinishedOperations(int operations, long units, long rows) {
    }

    /** A read that will run on replica {@code replica} of {@code shard}. */
    default void replicaRead(ShardId shard, String replica) {
    }

    /** A read that skipped replica {@code replica} of {@code shard} for {@code reason} (a {@code SkipReason} name). */
    default void replicaSkipped(ShardId shard, String replica, String reason) {
    }

    /** The lag replica {@code replica} of {@code shard} reported, in milliseconds; -1 when it could not tell. */
    default void replicaLag(ShardId shard, String replica, long lagMillis) {
    }

    /**
     * The metrics configured in {@code properties}: {@link #NONE} without {@link ShardingSettings#METER_REGISTRY};
     * Micrometer's types are loaded only when a registry is set.
     *
     * @throws ShardConfigurationException if the setting holds something other than a Micrometer
     *                                     {@code MeterRegistry}, or Micrometer is not on the class path
     */
    static ShardMetrics from(Map<String, Object> properties) {
        Object registry = properties.get(ShardingSettings.METER_REGISTRY);
        if (registry == null) {
            return NONE;
        }
        if (!micrometerPresent(registry.getClass().getClassLoader())) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.METER_REGISTRY + "' is set to a "
                    + registry.getClass().getName() + " but Micrometer (io.micrometer:micrometer-core) is not on the "
                    + "class path. Fix: add micrometer-core, or remove the setting");
        }
        return MicrometerShardMetrics.of(registry);
    }

    private static boolean micrometerPresent(ClassLoader loader) {
        try {
            Class.forName("io.micrometer.core.instrument.MeterRegistry", false,
                    loader != null ? loader : ShardMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
