package org.atomicshards.benchmarks.unitofwork;

import java.time.Duration;
import java.util.function.UnaryOperator;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.H2Mode;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * Atomic Shards on {@link #SHARDS} H2 databases with the HASH policy: each unit of work runs through
 * {@link ShardedSessionFactory#callInUnit}, which routes the key to its shard, opens the session and local
 * transaction there and commits.
 */
public final class AtomicShardsSide implements UnitOfWorkSide {

    private final H2Shards shards;
    private final ShardedSessionFactory factory;

    public AtomicShardsSide() {
        shards = H2Shards.create("uow_as", SHARDS, H2Mode.NATIVE, false, Duration.ZERO);
        factory = AtomicShardsFactories.build(shards, Policies.hash(), UnaryOperator.identity());
        DataLoader.loadCustomers(shards, CUSTOMERS, AtomicShardsFactories.placement(factory));
    }

    H2Shards shards() {
        return shards;
    }

    ShardedSessionFactory factory() {
        return factory;
    }

    @Override
    public int placeOrder(OrderRequest request) {
        return factory.callInUnit(Customer.class, request.customerId(),
                session -> UnitOfWork.placeOrder(session, request));
    }

    @Override
    public void close() {
        factory.close();
        shards.close();
    }
}
