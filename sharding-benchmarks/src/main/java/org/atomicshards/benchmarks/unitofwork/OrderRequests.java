package org.atomicshards.benchmarks.unitofwork;

import java.util.SplittableRandom;

/**
 * The stream of unit-of-work inputs: customers drawn uniformly from {@code 1..customers} by a fixed seed (every
 * side sees the same sequence), order ids counting up from a base above any loaded order. Not thread-safe: one per
 * benchmark thread.
 */
public final class OrderRequests {

    /** First id of the orders created while benchmarking; loaded orders stay far below it. */
    public static final long FIRST_NEW_ORDER_ID = 1_000_000_000_000L;

    /** New order ids of one thread stay within a block this large. */
    static final long IDS_PER_THREAD = 1_000_000_000_000L;

    private final long customers;
    private final SplittableRandom random;
    private long nextOrderId;

    public OrderRequests(long customers) {
        this(customers, 20261121L, FIRST_NEW_ORDER_ID);
    }

    private OrderRequests(long customers, long seed, long firstOrderId) {
        if (customers < 1) {
            throw new IllegalArgumentException("Need at least one customer, was " + customers);
        }
        this.customers = customers;
        this.random = new SplittableRandom(seed);
        this.nextOrderId = firstOrderId;
    }

    /**
     * The stream of benchmark thread {@code thread} (0, 1, ...): thread 0 gets the single-thread sequence, every
     * other thread its own seed and a block of {@link #IDS_PER_THREAD} order ids no other thread uses.
     */
    public static OrderRequests forThread(long customers, int thread) {
        if (thread < 0) {
            throw new IllegalArgumentException("Thread index must not be negative, was " + thread);
        }
        return new OrderRequests(customers, 20261121L + thread, FIRST_NEW_ORDER_ID + thread * IDS_PER_THREAD);
    }

    public OrderRequest next() {
        return new OrderRequest(1 + random.nextLong(customers), nextOrderId++, 100 + random.nextLong(100_000));
    }
}
