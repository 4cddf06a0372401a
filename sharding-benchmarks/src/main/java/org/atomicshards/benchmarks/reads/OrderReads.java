package org.atomicshards.benchmarks.reads;

import java.util.List;
import java.util.function.LongConsumer;

import org.atomicshards.benchmarks.model.PurchaseOrder;

/**
 * The two queries of the fan-out benchmarks, over every order a side holds: the first orders by
 * {@code placed_at} (ORDER BY + LIMIT), and all orders by {@code placed_at} streamed (ORDER BY without limit).
 * Implementations own their databases; {@link #close()} drops them.
 */
public interface OrderReads extends AutoCloseable {

    /** {@code select o from PurchaseOrder o order by o.placedAt}, first {@code limit} rows. */
    List<PurchaseOrder> firstPlaced(int limit);

    /**
     * Streams {@code select o from PurchaseOrder o order by o.placedAt} to the end, without keeping the rows.
     *
     * @param afterEachRow called with the number of rows read so far after each row, while the stream is open (the
     *                     heap probe measures retained memory there); {@code rows -> { }} for nothing
     */
    StreamDigest streamAllByPlacedAt(LongConsumer afterEachRow);

    @Override
    void close();
}
