package org.atomicshards.benchmarks.merge;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.List;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.reads.OrderReads;

/**
 * Measures the heap a merge retains, in a JVM of its own: load {@value MergeBenchmark#SHARDS} shards of
 * {@code rowsPerShard} orders; then for each {@link MergeQuery}, run it once to warm up (and check its answer), take
 * the used heap after a full GC as the base, then take it again after a full GC while the merge's result is held
 * (the limited query) or while the stream is open a quarter, half and three quarters of the way through (the
 * streamed query). The difference is what the merge keeps alive; the median of three samples is reported.
 *
 * <p>Usage: {@code RetainedHeapProbe <side> <rowsPerShard>}; prints one line {@code retained-bytes.<query>=<n>} per
 * query. Run it with {@code -XX:+UseSerialGC} so that a full GC leaves only live objects.
 */
public final class RetainedHeapProbe {

    /** Prefix of the result lines on standard output; the query's name and {@code =} follow. */
    public static final String RESULT_PREFIX = "retained-bytes.";

    /** Measurements per query; the median is reported, so one disturbed sample does not decide. */
    private static final int SAMPLES = 3;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private RetainedHeapProbe() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            throw new IllegalArgumentException("Usage: RetainedHeapProbe <side> <rowsPerShard>");
        }
        MergeSide side = MergeSide.fromCliName(args[0]);
        OrderDataSet data = new OrderDataSet(MergeBenchmark.SHARDS, Long.parseLong(args[1]));
        try (OrderReads reads = side.open(data)) {
            for (MergeQuery query : MergeQuery.values()) {
                long retained = switch (query) {
                    case FIRST_HUNDRED -> retainedByFirstHundred(reads, data);
                    case STREAM -> retainedByStream(reads, data);
                };
                System.out.println(RESULT_PREFIX + query.cliName() + "=" + retained);
            }
        }
    }

    private static long retainedByFirstHundred(OrderReads reads, OrderDataSet data) {
        data.checkFirstPlaced(reads.firstPlaced(MergeBenchmark.LIMIT), MergeBenchmark.LIMIT);
        long[] retained = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            long base = usedHeapAfterFullGc();
            List<PurchaseOrder> result = reads.firstPlaced(MergeBenchmark.LIMIT);
            retained[i] = usedHeapAfterFullGc() - base;
            Reference.reachabilityFence(result);
        }
        return median(retained);
    }

    /** Samples a quarter, half and three quarters of the way through one stream. */
    private static long retainedByStream(OrderReads reads, OrderDataSet data) {
        data.checkStream(reads.streamAllByPlacedAt(rows -> { }));
        long base = usedHeapAfterFullGc();
        long step = data.totalOrders() / (SAMPLES + 1);
        long[] retained = new long[SAMPLES];
        data.checkStream(reads.streamAllByPlacedAt(rows -> {
            if (rows % step == 0 && rows / step <= SAMPLES) {
                retained[(int) (rows / step) - 1] = usedHeapAfterFullGc() - base;
            }
        }));
        return median(retained);
    }

    private static long median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long usedHeapAfterFullGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
