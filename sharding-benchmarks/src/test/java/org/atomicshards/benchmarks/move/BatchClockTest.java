package org.atomicshards.benchmarks.move;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveProgress;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.junit.jupiter.api.Test;

/** A batch ends at the first progress report that sees a new map; it switched what the target gained. */
class BatchClockTest {

    private static final ShardId A = ShardId.of("s0");
    private static final ShardId B = ShardId.of("s1");

    /** A map of 8 virtual shards whose version grows with every switch. */
    private static final class Map8 implements ShardDirectory {
        final TreeMap<Integer, ShardId> owners = new TreeMap<>();
        int version = 1;

        Map8() {
            for (int v = 0; v < 8; v++) {
                owners.put(v, v < 2 ? B : A);
            }
        }

        void switchTo(ShardId target, int... virtualShards) {
            for (int v : virtualShards) {
                owners.put(v, target);
            }
            version++;
        }

        @Override
        public int version() {
            return version;
        }

        @Override
        public int virtualShards() {
            return owners.size();
        }

        @Override
        public ShardId shardOf(int virtualShard) {
            return owners.get(virtualShard);
        }

        @Override
        public List<Integer> virtualShardsOf(ShardId shard) {
            List<Integer> owned = new ArrayList<>();
            owners.forEach((v, owner) -> {
                if (owner.equals(shard)) {
                    owned.add(v);
                }
            });
            return owned;
        }

        @Override
        public List<ShardId> owningShards() {
            return List.of(A, B);
        }

        @Override
        public Optional<Integer> placementOf(Class<?> unitRoot, Object key) {
            return Optional.empty();
        }
    }

    private static MoveProgress progress(int batch) {
        return new MoveProgress("op", batch, 2, 0, 0, 0, Duration.ZERO, 0, Duration.ZERO);
    }

    @Test
    void notesEachBatchEndOnceWithTheVirtualShardsItSwitched() {
        Map8 map = new Map8();
        AtomicLong clock = new AtomicLong(100);
        BatchClock batches = new BatchClock(map, B, clock::get);

        batches.onProgress(progress(0)); // a chunk copied: nothing switched
        clock.set(200);
        map.switchTo(B, 4, 5);
        batches.onProgress(progress(0)); // the end of batch 0
        clock.set(300);
        batches.onProgress(progress(1)); // a chunk of batch 1
        clock.set(400);
        map.switchTo(B, 6, 7);
        batches.onProgress(progress(1));

        assertThat(batches.batches()).containsExactly(
                new BatchClock.SwitchedBatch(200, java.util.Set.of(4, 5)),
                new BatchClock.SwitchedBatch(400, java.util.Set.of(6, 7)));
    }
}
