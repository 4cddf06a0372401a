package org.atomicshards.benchmarks.reads;

import org.atomicshards.benchmarks.model.PurchaseOrder;

/**
 * What a streamed read saw: the row count, the sum of {@code placed_at} and whether the rows came in ascending
 * {@code placed_at} order. Enough to check a merge against the loaded data without keeping the rows.
 */
public record StreamDigest(long rows, long placedAtSum, boolean ascending) {

    /** Accumulates a digest row by row. Not thread-safe. */
    public static final class Builder {
        private long rows;
        private long sum;
        private long last = Long.MIN_VALUE;
        private boolean ascending = true;

        public void accept(PurchaseOrder order) {
            long placedAt = order.getPlacedAt();
            if (placedAt < last) {
                ascending = false;
            }
            last = placedAt;
            sum += placedAt;
            rows++;
        }

        public long rows() {
            return rows;
        }

        public StreamDigest build() {
            return new StreamDigest(rows, sum, ascending);
        }
    }
}
