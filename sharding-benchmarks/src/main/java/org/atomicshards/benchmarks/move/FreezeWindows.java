package org.atomicshards.benchmarks.move;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongToIntFunction;

/**
 * The write pause as the application sees it: the latencies of the units of work on a batch's virtual shards that
 * were running while that batch was frozen. A batch's freeze is the interval of its write pause as the mover reports
 * it ({@link org.atomicshards.hibernate.admin.MoveReport#writePauses()}, freeze to promotion) ending when the
 * {@link BatchClock} saw the batch switched.
 */
final class FreezeWindows {

    private FreezeWindows() {
    }

    /**
     * @param batches        the batches of one move, in order, from its {@link BatchClock}
     * @param pauses         the same move's write pause per batch, in the same order
     * @param logs           the units of work run during the move (and around it)
     * @param virtualShardOf the virtual shard of a customer key
     * @return the latency (ms) of every unit of work on a frozen batch's virtual shard that overlapped its freeze
     * @throws IllegalArgumentException if there are not as many pauses as batches
     */
    static Samples frozenLatencies(List<BatchClock.SwitchedBatch> batches, List<Duration> pauses,
                                   List<UnitOfWorkLog> logs, LongToIntFunction virtualShardOf) {
        if (batches.size() != pauses.size()) {
            throw new IllegalArgumentException("The move reported " + pauses.size() + " write pauses but the"
                    + " progress listener saw " + batches.size() + " batches switched; the freeze of each batch cannot"
                    + " be placed in time (did something else change the map during the move?)");
        }
        Map<Integer, long[]> windowOf = new HashMap<>();
        for (int i = 0; i < batches.size(); i++) {
            long end = batches.get(i).endNanos();
            long[] window = {end - pauses.get(i).toNanos(), end};
            for (int virtualShard : batches.get(i).virtualShards()) {
                windowOf.put(virtualShard, window);
            }
        }
        Samples latencies = new Samples();
        for (UnitOfWorkLog log : logs) {
            for (int i = 0; i < log.size(); i++) {
                long[] window = windowOf.get(virtualShardOf.applyAsInt(log.key(i)));
                if (window != null && log.start(i) < window[1] && log.end(i) > window[0]) {
                    latencies.add((log.end(i) - log.start(i)) / 1e6);
                }
            }
        }
        return latencies;
    }
}
