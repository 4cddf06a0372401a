package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.Test;

/**
 * A pool that keeps no idle connection ({@code min_idle} 0, the default above 32 shards) must be able to close its
 * connections once no session uses them: the lease maintenance at each refresh takes no connection from it then.
 * Taking one at every refresh kept one connection per shard open for good and ran a statement per shard and refresh.
 */
class IdlePoolsTest {

    private static final ShardId S0 = ShardId.of("s0");

    @Test
    void aRefreshTakesNoConnectionFromAnIdlePoolThatKeepsNone() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 2)) {
            assertThat(acquisitionsWhileIdle(dbs, "1")).as("min_idle 1: the lease state is read at every refresh")
                    .isGreaterThanOrEqualTo(3);
            assertThat(acquisitionsWhileIdle(dbs, "0")).as("min_idle 0: nothing taken once no session uses the pool")
                    .isZero();
        }
    }

    /** Connections taken from s0's pool during a second without sessions there, refreshing every 100 ms. */
    private static long acquisitionsWhileIdle(ShardDatabases dbs, String minIdle) throws InterruptedException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ShardedSessionFactory shards = Fixtures.builder(dbs, 16)
                .property(ShardingSettings.POOL_METRICS_TRACKER_FACTORY, new MicrometerMetricsTrackerFactory(registry))
                .property(ShardingSettings.POOL_MIN_IDLE, minIdle)
                .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100")
                .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true").build()) {
            long key = Fixtures.keyOn(shards, S0, 1);
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key)));
            Thread.sleep(400); // the refreshes right after the unit of work read the shard's lease state
            long before = acquisitions(registry);
            Thread.sleep(1_000);
            return acquisitions(registry) - before;
        }
    }

    private static long acquisitions(SimpleMeterRegistry registry) {
        return registry.find("hikaricp.connections.acquire").timers().stream()
                .filter(timer -> timer.getId().getTag("pool").endsWith("-" + S0))
                .mapToLong(Timer::count).sum();
    }
}
