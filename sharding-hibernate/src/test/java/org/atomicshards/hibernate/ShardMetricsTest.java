package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The meters of units of work, fan-out queries, guards and id probes, recorded in a {@link SimpleMeterRegistry}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardMetricsTest {

    private ShardDatabases dbs;
    private SimpleMeterRegistry registry;
    private ShardedSessionFactory shards;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 4);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @BeforeEach
    void boot() {
        registry = new SimpleMeterRegistry();
        shards = Fixtures.builder(dbs, 64).meterRegistry(registry).build();
    }

    @AfterEach
    void shutDown() {
        shards.close();
    }

    @Test
    void unitsOfWorkAreTimedPerShardAndUnitWithTheirOutcome() {
        for (long id = 0; id < 3; id++) {
            shards.persist(new User(id, "u" + id));
        }
        shards.inUnit(User.class, 1L, session -> shards.find(User.class, 1L)); // the find joins: timed once
        ShardId shardOf1 = shards.shardFor(User.class, 1L).orElseThrow();
        assertThatThrownBy(() -> shards.inUnit(User.class, 1L, session -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(IllegalStateException.class);

        long successes = registry.find("atomicshards.unit_of_work").tag("unit", "User").tag("outcome", "success")
                .timers().stream().mapToLong(Timer::count).sum();
        Timer failed = registry.find("atomicshards.unit_of_work").tag("unit", "User").tag("outcome", "error")
                .tag("exception", "IllegalStateException").tag("shard", shardOf1.name()).timer();
        assertThat(failed).isNotNull();
        assertThat(failed.count()).isEqualTo(1);
        // three persists and one unit (with a joined find inside); the failure is not a success
        assertThat(successes).isEqualTo(4);
        for (long id = 0; id < 3; id++) {
            ShardId shard = shards.shardFor(User.class, id).orElseThrow();
            assertThat(registry.find("atomicshards.unit_of_work").tag("shard", shard.name()).timers()).isNotEmpty();
        }
    }

    @Test
    void guardRejectionsAreCountedByException() {
        long[] keys = keysOnDifferentShards();
        assertThatThrownBy(() -> shards.inUnit(User.class, keys[0],
                session -> session.persist(new User(keys[1], "elsewhere"))))
                .isInstanceOf(WrongShardException.class);
        assertThatThrownBy(() -> shards.inUnit(User.class, keys[0],
                session -> shards.inUnit(User.class, keys[1], inner -> { })))
                .isInstanceOf(CrossShardUnitOfWorkException.class);

        assertThat(counter("atomicshards.guard.rejections", "exception", "WrongShardException")).isEqualTo(1);
        assertThat(counter("atomicshards.guard.rejections", "exception", "CrossShardUnitOfWorkException"))
                .isEqualTo(1);
    }

    @Test
    void findsThatAskTheShardsAreCounted() {
        shards.persist(new User(7L, "u7"));
        assertThat(shards.find(User.class, 7L)).isNotNull(); // routed by key: no probe
        assertThat(shards.find(Status.class, UUID.randomUUID())).isNull();
        assertThat(shards.find(Status.class, UUID.randomUUID())).isNull();

        assertThat(counter("atomicshards.id_routing.probes", "entity", "Status")).isEqualTo(2);
        assertThat(registry.find("atomicshards.id_routing.probes").tag("entity", "User").counter()).isNull();
    }

    @Test
    void fanOutQueriesAreTimedWithShardsAskedPruningAndEachShard() {
        for (long id = 0; id < 20; id++) {
            shards.persist(new User(id, "u" + id));
        }
        assertThat(shards.fanOut().createQuery("select u from User u", User.class).getResultList()).hasSize(20);
        assertThat(shards.fanOut().createQuery("select u from User u where u.id = 5", User.class).getResultList())
                .hasSize(1);

        int all = shards.router().shards().size();
        Timer everywhere = registry.find("atomicshards.fanout").tag("shards.asked", Integer.toString(all))
                .tag("pruned", "false").tag("partial", "false").tag("outcome", "success").timer();
        Timer pruned = registry.find("atomicshards.fanout").tag("shards.asked", "1").tag("pruned", "true").timer();
        assertThat(everywhere).isNotNull();
        assertThat(everywhere.count()).isEqualTo(1);
        assertThat(pruned).isNotNull();
        assertThat(pruned.count()).isEqualTo(1);
        ShardId owner = shards.shardFor(User.class, 5L).orElseThrow();
        for (ShardId shard : shards.router().shards()) {
            Timer perShard = registry.find("atomicshards.fanout.shard").tag("shard", shard.name())
                    .tag("outcome", "success").timer();
            assertThat(perShard).as("shard %s", shard).isNotNull();
            assertThat(perShard.count()).as("shard %s", shard).isEqualTo(shard.equals(owner) ? 2 : 1);
        }
    }

    @Test
    void aRegistrySettingThatIsNoMeterRegistryIsRejectedNamingTheSetting() {
        assertThatThrownBy(() -> Fixtures.builder(dbs, 64).meterRegistry("registry").build())
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(ShardingSettings.METER_REGISTRY)
                .hasMessageContaining("java.lang.String");
    }

    private double counter(String name, String tag, String value) {
        Counter counter = registry.find(name).tag(tag, value).counter();
        assertThat(counter).as("%s{%s=%s}", name, tag, value).isNotNull();
        return counter.count();
    }

    private long[] keysOnDifferentShards() {
        ShardId first = shards.shardFor(User.class, 1L).orElseThrow();
        for (long key = 2; ; key++) {
            if (!shards.shardFor(User.class, key).orElseThrow().equals(first)) {
                return new long[] {1L, key};
            }
        }
    }
}
