package org.atomicshards.hibernate.internal.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.junit.jupiter.api.Test;

class KeyGeneratorsTest {

    @Test
    void snowflakeIdsRoundTripTheirVirtualShardAndTime() {
        long id = SnowflakeLayout.compose(123_456_789L, 1023, 31, 127);
        assertThat(id).isPositive();
        assertThat(SnowflakeLayout.virtualShardOf(id)).isEqualTo(1023);
        assertThat(SnowflakeLayout.unixMillisOf(id)).isEqualTo(SnowflakeLayout.EPOCH_MILLIS + 123_456_789L);
        assertThat(SnowflakeLayout.virtualShardOf(SnowflakeLayout.compose(5, 7, 0, 0))).isEqualTo(7);
    }

    @Test
    void timeOrderedUuidsAreVersionSevenAndUnique() {
        KeyGenerators generators = new KeyGenerators(null, 1000, 0);
        Set<UUID> seen = new HashSet<>();
        long before = System.currentTimeMillis();
        for (int i = 0; i < 10_000; i++) {
            UUID uuid = generators.nextTimeOrderedUuid();
            assertThat(uuid.version()).isEqualTo(7);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(uuid.getMostSignificantBits() >>> 16).isGreaterThanOrEqualTo(before);
            seen.add(uuid);
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void snowflakeIdsOfOneWorkerNeverRepeatEvenBeyondTheSequenceOfAMillisecond() {
        KeyGenerators generators = new KeyGenerators(null, 1000, 3);
        Set<Long> seen = new HashSet<>();
        long previousOnShardTwo = 0;
        for (int i = 0; i < 20_000; i++) {
            int virtualShard = i % 4;
            long id = generators.nextSnowflake(virtualShard);
            assertThat(SnowflakeLayout.virtualShardOf(id)).isEqualTo(virtualShard);
            if (virtualShard == 2) {
                assertThat(id).isGreaterThan(previousOnShardTwo);
                previousOnShardTwo = id;
            }
            seen.add(id);
        }
        assertThat(seen).hasSize(20_000);
    }

    @Test
    void sequenceBlocksFromOneCatalogNeverOverlapAcrossConcurrentAllocators() throws Exception {
        String url = "jdbc:h2:mem:blocks_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Catalog first = new Catalog(url, null, null, "blocks-a"); Catalog second = new Catalog(url, null, null, "blocks-b")) {
            first.exclusively("prepare the schema", () -> {
                first.prepareSchema();
                return null;
            });
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Long>> starts = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    Catalog catalog = i % 2 == 0 ? first : second;
                    starts.add(pool.submit(() -> catalog.allocateBlock("User", 100, 0)));
                }
                Set<Long> blockStarts = new HashSet<>();
                for (Future<Long> start : starts) {
                    blockStarts.add(start.get());
                }
                assertThat(blockStarts).hasSize(40).allSatisfy(start -> assertThat(start % 100).isZero());
                assertThat(blockStarts).contains(0L, 3900L);
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
