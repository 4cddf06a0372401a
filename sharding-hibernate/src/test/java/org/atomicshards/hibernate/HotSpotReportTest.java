package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The hot-spot report on skewed workloads over four embedded H2 shards and 64 virtual shards. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HotSpotReportTest {

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;
    private UnitRoutingImpl users;

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
        shards = Fixtures.builder(dbs, 64).build();
        users = (UnitRoutingImpl) shards.router().routingOf(User.class).orElseThrow();
    }

    @AfterEach
    void shutDown() {
        shards.close();
    }

    @Test
    void readsAndWritesRoutedByKeyAreCountedOnTheKeysVirtualShard() {
        shards.persist(new User(3L, "three"));
        shards.inUnit(User.class, 3L, session -> { });
        shards.find(User.class, 3L);
        shards.find(User.class, 3L);

        HotSpotReport report = shards.hotSpots();

        assertThat(report.writes()).isEqualTo(2);
        assertThat(report.reads()).isEqualTo(2);
        HotSpotReport.VirtualShardTraffic hottest = report.hottestVirtualShards().get(0);
        assertThat(hottest.virtualShard()).isEqualTo(virtualShardOf(3L));
        assertThat(hottest.owner()).isEqualTo(shards.shardFor(User.class, 3L).orElseThrow());
        assertThat(hottest.share()).isEqualTo(1.0);
        assertThat(report.shards()).hasSize(shards.shards().size());
        assertThat(report.shards().get(0).shard()).isEqualTo(hottest.owner());

        shards.resetHotSpots();
        assertThat(shards.hotSpots().total()).isZero();
    }

    @Test
    void aHotShardGetsTheMoveOfItsHottestVirtualShardToTheColdestShardAndTheDominantKeyIsNamed() {
        long hotKey = 7L;
        ShardId hotShard = shards.shardFor(User.class, hotKey).orElseThrow();
        long secondKey = anotherKeyOn(hotShard, virtualShardOf(hotKey));
        for (long key = 1000; key < 1400; key++) { // an even background
            write(key, 10);
        }
        write(hotKey, 3000);
        write(secondKey, 2000);

        HotSpotReport report = shards.hotSpots();

        assertThat(report.writes()).isEqualTo(4000 + 3000 + 2000);
        assertThat(report.hottestVirtualShards().get(0).virtualShard()).isEqualTo(virtualShardOf(hotKey));
        assertThat(report.hottestVirtualShards().get(1).virtualShard()).isEqualTo(virtualShardOf(secondKey));
        assertThat(report.shards().get(0).shard()).isEqualTo(hotShard);
        ShardId coldest = report.shards().get(report.shards().size() - 1).shard();
        assertThat(report.suggestedMove()).hasValueSatisfying(move -> {
            assertThat(move.virtualShard()).isEqualTo(virtualShardOf(hotKey));
            assertThat(move.from()).isEqualTo(hotShard);
            assertThat(move.to()).isEqualTo(coldest).isNotEqualTo(hotShard);
        });
        assertThat(report.dominantKeys()).extracting(HotSpotReport.HotKey::key).contains(hotKey, secondKey);
        HotSpotReport.HotKey top = report.dominantKeys().get(0);
        assertThat(top.unit()).isEqualTo("User");
        assertThat(top.key()).isEqualTo(hotKey);
        assertThat(top.virtualShard()).isEqualTo(virtualShardOf(hotKey));
        assertThat(top.share()).isGreaterThan(0.5);
        assertThat(report.advice()).anySatisfy(line -> assertThat(line).startsWith("Move virtual shard "
                + virtualShardOf(hotKey) + " "));
        assertThat(report.toString()).contains("virtual shard", hotShard.name());
    }

    @Test
    void aVirtualShardThatAloneIsTheHotSpotIsNotMovedButSplitAdvised() {
        for (long key = 1000; key < 1100; key++) {
            write(key, 1);
        }
        write(7L, 5000);

        HotSpotReport report = shards.hotSpots();

        assertThat(report.suggestedMove()).isEmpty();
        assertThat(report.advice()).anySatisfy(line -> assertThat(line).contains("Virtual shard "
                + virtualShardOf(7L) + " alone carries").contains("one key"));
        assertThat(report.dominantKeys()).first().extracting(HotSpotReport.HotKey::key).isEqualTo(7L);
    }

    @Test
    void anEvenWorkloadNeedsNoMoveAndNamesNoKey() {
        for (long key = 0; key < 4000; key++) {
            write(key, 3);
        }

        HotSpotReport report = shards.hotSpots();

        assertThat(report.suggestedMove()).isEmpty();
        assertThat(report.dominantKeys()).isEmpty();
    }

    @Test
    void countsStayExactUnderConcurrentThreads() throws Exception {
        int threads = 4;
        int writesPerThread = 20_000;
        int keys = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < writesPerThread; i++) {
                        write(i % keys + 1, 1);
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }
        Map<Integer, Long> expectedByVirtualShard = new HashMap<>();
        Map<ShardId, Long> expectedByShard = new HashMap<>();
        long perKey = (long) threads * writesPerThread / keys;
        for (long key = 1; key <= keys; key++) {
            expectedByVirtualShard.merge(virtualShardOf(key), perKey, Long::sum);
            expectedByShard.merge(shards.shardFor(User.class, key).orElseThrow(), perKey, Long::sum);
        }

        HotSpotReport report = shards.hotSpots();

        assertThat(report.writes()).isEqualTo((long) threads * writesPerThread);
        assertThat(report.hottestVirtualShards()).isNotEmpty().allSatisfy(v ->
                assertThat(v.writes()).as("virtual shard " + v.virtualShard())
                        .isEqualTo(expectedByVirtualShard.get(v.virtualShard())));
        assertThat(report.shards()).allSatisfy(s ->
                assertThat(s.writes()).as("shard " + s.shard()).isEqualTo(expectedByShard.getOrDefault(s.shard(), 0L)));
    }

    @Test
    void hotSpotsCanBeTurnedOff() {
        try (ShardedSessionFactory off = Fixtures.builder(dbs, 64)
                .property(ShardingSettings.HOT_SPOTS_ENABLED, "false").build()) {
            off.persist(new User(1L, "one"));
            assertThat(off.hotSpots().total()).isZero();
        }
    }

    /** {@code times} writes routed for user {@code key}, as a Spring repository routes a save (no database work). */
    private void write(long key, int times) {
        User user = new User(key, "u");
        for (int i = 0; i < times; i++) {
            shards.shardForWrite(user);
        }
    }

    private int virtualShardOf(long key) {
        return users.placement().virtualShardOf(key);
    }

    private long anotherKeyOn(ShardId shard, int notVirtualShard) {
        for (long key = 8; ; key++) {
            if (shards.shardFor(User.class, key).orElseThrow().equals(shard)
                    && virtualShardOf(key) != notVirtualShard) {
                return key;
            }
        }
    }
}
