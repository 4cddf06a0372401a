package org.atomicshards.benchmarks.move;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveProgress;
import org.atomicshards.hibernate.spi.ShardDirectory;

/**
 * A move's progress listener that notes when each batch ended and which virtual shards it switched. The mover
 * reports progress after every copied chunk and once more at the end of each batch, right after the batch's
 * promotion ends its write pause; the end of a batch is the first report that sees a new map version in the
 * factory's directory (the mover refreshes it at the switch, and nothing else changes the map during the benchmark).
 * One per move; called on the moving thread, read after the move returned.
 */
final class BatchClock implements MoveProgress.Listener {

    /** One switched batch: when its write pause ended ({@link System#nanoTime()}) and its virtual shards. */
    record SwitchedBatch(long endNanos, Set<Integer> virtualShards) {

        SwitchedBatch {
            virtualShards = Set.copyOf(virtualShards);
        }
    }

    private final ShardDirectory directory;
    private final ShardId target;
    private final LongSupplier clock;
    private final List<SwitchedBatch> batches = new ArrayList<>();
    private int version;
    private Set<Integer> owned;

    BatchClock(ShardDirectory directory, ShardId target, LongSupplier clock) {
        this.directory = directory;
        this.target = target;
        this.clock = clock;
        this.version = directory.version();
        this.owned = new HashSet<>(directory.virtualShardsOf(target));
    }

    @Override
    public void onProgress(MoveProgress progress) {
        int current = directory.version();
        if (current == version) {
            return;
        }
        long now = clock.getAsLong();
        version = current;
        Set<Integer> nowOwned = new HashSet<>(directory.virtualShardsOf(target));
        Set<Integer> switched = new TreeSet<>(nowOwned);
        switched.removeAll(owned);
        owned = nowOwned;
        batches.add(new SwitchedBatch(now, switched));
    }

    /** The batches switched so far, in order. */
    List<SwitchedBatch> batches() {
        return List.copyOf(batches);
    }
}
