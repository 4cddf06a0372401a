package org.atomicshards.benchmarks.unitofwork;

/**
 * One way of running {@link UnitOfWork#placeOrder}: a side of the routing-overhead comparison, with its databases
 * loaded with {@link #CUSTOMERS} customers where it will look for them.
 */
public interface UnitOfWorkSide extends AutoCloseable {

    /** Customers loaded on every side; keys {@code 1..CUSTOMERS}. */
    long CUSTOMERS = 10_000;

    /** Shards of the sharded sides. */
    int SHARDS = 4;

    /** Maximum size of every pool of every side (one per shard; on H2 always {@code H2Shards.POOL_SIZE}). */
    int POOL_SIZE = 8;

    /** Runs one unit of work in its own session and transaction, committed before returning. */
    int placeOrder(OrderRequest request);

    @Override
    void close();
}
