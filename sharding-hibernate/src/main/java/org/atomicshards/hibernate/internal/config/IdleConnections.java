package org.atomicshards.hibernate.internal.config;

import org.atomicshards.hibernate.ShardingSettings;

/**
 * How many connections a started shard pool keeps open while nothing uses them, and for how long it keeps the others.
 * Validated by {@link SettingsReader}.
 *
 * @param minIdle idle connections each pool keeps open (HikariCP's {@code minimumIdle}); a shard whose pool is
 *        smaller keeps at most its pool size
 * @param idleTimeoutMillis how long a connection beyond {@code minIdle} may stay idle before the pool closes it
 *        (HikariCP's {@code idleTimeout}), from {@link #MIN_IDLE_TIMEOUT_MILLIS} to {@link #MAX_IDLE_TIMEOUT_MILLIS}
 */
public record IdleConnections(int minIdle, long idleTimeoutMillis) {

    /** HikariCP's smallest idle timeout: it replaces a shorter one by its default of 10 minutes. */
    public static final long MIN_IDLE_TIMEOUT_MILLIS = 10_000;

    /**
     * The longest idle timeout HikariCP applies under its default maximum lifetime of a connection (30 minutes): it
     * disables an idle timeout within a second of the lifetime.
     */
    public static final long MAX_IDLE_TIMEOUT_MILLIS = 1_799_000;

    /** The defaults for {@code shards} configured shards. */
    public static IdleConnections defaultsFor(int shards) {
        return new IdleConnections(ShardingSettings.defaultMinIdle(shards),
                ShardingSettings.defaultIdleTimeoutMillis(shards));
    }

    /** The minimum idle connections of a pool of at most {@code poolSize} connections. */
    public int minIdleFor(int poolSize) {
        return Math.min(minIdle, poolSize);
    }
}
