package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.metrics.IMetricsTracker;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The routing answers integrations (Spring) ask for before they open a session: the shard of a write, the shards
 * that may hold an id, and the metrics tracker given to every shard pool.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntegrationRoutingTest {

    private final Set<String> trackedPools = ConcurrentHashMap.newKeySet();
    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeAll
    void boot() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 3);
        MetricsTrackerFactory tracker = (poolName, poolStats) -> {
            trackedPools.add(poolName);
            return new IMetricsTracker() {
            };
        };
        shards = Fixtures.builder(dbs, 64).property(ShardingSettings.POOL_METRICS_TRACKER_FACTORY, tracker).build();
    }

    @AfterAll
    void close() {
        shards.close();
        dbs.close();
    }

    @Nested
    class ShardForWrite {

        @Test
        void isTheKeysShardForARootAndForAMember() {
            ShardId owner = shards.shardFor(User.class, 7L).orElseThrow();
            User user = new User(7L, "u7@example.com");
            assertThat(shards.shardForWrite(user)).contains(owner);
            assertThat(shards.shardForWrite(new Status(user, "hello"))).contains(owner);
            assertThat(shards.shardForWrite(new Photo(7L, "blob"))).contains(owner);
        }

        @Test
        void isEmptyForReferenceData() {
            assertThat(shards.shardForWrite(new Country("FR", "France"))).isEmpty();
        }

        @Test
        void rejectsAMemberWithoutAKey() {
            assertThatThrownBy(() -> shards.shardForWrite(new Photo(null, "blob")))
                    .isInstanceOf(MissingShardKeyException.class);
        }
    }

    @Nested
    class ShardsForId {

        @Test
        void isTheOwnerWhenTheIdIsTheKeyOrEncodesIt() {
            shards.persist(new User(11L, "u11@example.com"));
            Photo photo = new Photo(11L, "blob");
            shards.persist(photo);
            ShardId owner = shards.shardFor(User.class, 11L).orElseThrow();
            assertThat(shards.shardsForId(User.class, 11L)).containsExactly(owner);
            assertThat(shards.shardsForId(Photo.class, photo.getId())).containsExactly(owner);
        }

        @Test
        void isEveryShardWhenOnlyAskingCanTell() {
            assertThat(shards.shardsForId(Status.class, UUID.randomUUID()))
                    .containsExactlyInAnyOrderElementsOf(shards.shards());
            assertThat(shards.shardsForId(Country.class, "FR")).containsExactlyInAnyOrderElementsOf(shards.shards());
        }

        @Test
        void rejectsANullId() {
            assertThatThrownBy(() -> shards.shardsForId(User.class, null))
                    .isInstanceOf(MissingShardKeyException.class);
        }
    }

    @Nested
    class PoolMetrics {

        @Test
        void everyStartedShardPoolGetsTheTrackerUnderItsOwnName() {
            for (long id = 20; id < 40; id++) {
                shards.persist(new User(id, "u" + id + "@example.com"));
            }
            assertThat(trackedPools).hasSize(3)
                    .allSatisfy(pool -> assertThat(pool).startsWith("atomicshards-"))
                    .anySatisfy(pool -> assertThat(pool).endsWith("-s0"));
        }

        @Test
        void aSettingOfAnotherTypeIsRejectedNamingTheSetting() {
            assertThatThrownBy(() -> Fixtures.builder(dbs, 64)
                    .property(ShardingSettings.POOL_METRICS_TRACKER_FACTORY, "com.example.Tracker").build())
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining(ShardingSettings.POOL_METRICS_TRACKER_FACTORY)
                    .hasMessageContaining("MetricsTrackerFactory");
        }
    }
}
