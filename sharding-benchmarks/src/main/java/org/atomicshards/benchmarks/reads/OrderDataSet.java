package org.atomicshards.benchmarks.reads;

import java.util.List;
import java.util.stream.LongStream;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.support.DataLoader;

/**
 * The orders a fan-out benchmark loads ({@code ordersPerShard} on each of {@code shards} shards, see
 * {@link DataLoader#loadOrders}) and the answers a correct merge must give over them: {@code placed_at} takes every
 * value {@code 0 .. shards * ordersPerShard - 1} exactly once.
 */
public record OrderDataSet(int shards, long ordersPerShard) {

    public long totalOrders() {
        return shards * ordersPerShard;
    }

    /** Customers loaded per shard: enough that orders spread over many units, few enough to load instantly. */
    public long customers() {
        return 100L * shards;
    }

    /**
     * @throws IllegalStateException if {@code firstPlaced} is not the first {@code limit} orders of the data set
     */
    public void checkFirstPlaced(List<PurchaseOrder> firstPlaced, int limit) {
        List<Long> expected = LongStream.range(0, Math.min(limit, totalOrders())).boxed().toList();
        List<Long> actual = firstPlaced.stream().map(PurchaseOrder::getPlacedAt).toList();
        if (!actual.equals(expected)) {
            throw new IllegalStateException("Wrong merge: expected placed_at " + expected + " but got " + actual);
        }
    }

    /** @throws IllegalStateException if {@code digest} is not every order of the data set in ascending order */
    public void checkStream(StreamDigest digest) {
        long n = totalOrders();
        StreamDigest expected = new StreamDigest(n, n * (n - 1) / 2, true);
        if (!digest.equals(expected)) {
            throw new IllegalStateException("Wrong streamed merge: expected " + expected + " but got " + digest);
        }
    }
}
