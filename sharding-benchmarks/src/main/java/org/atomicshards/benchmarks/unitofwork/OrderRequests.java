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

    private final long customers;
    private final SplittableRandom random = new SplittableRandom(20261121L);
    private long nextOrderId = FIRST_NEW_ORDER_ID;

    public OrderRequests(long customers) {
        if (customers < 1) {
            throw new IllegalArgumentException("Need at least one customer, was " + customers);
        }
        this.customers = customers;
    }

    public OrderRequest next() {
        return new OrderRequest(1 + random.nextLong(customers), nextOrderId++, 100 + random.nextLong(100_000));
    }
}
