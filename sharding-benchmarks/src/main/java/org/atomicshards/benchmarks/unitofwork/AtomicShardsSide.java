package org.atomicshards.benchmarks.unitofwork;

import java.util.function.UnaryOperator;

import org.atomicshards.benchmarks.model.Customer;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.benchmarks.support.DataLoader;
import org.atomicshards.benchmarks.support.ShardDatabases;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;

/**
 * Atomic Shards on {@link #SHARDS} databases (H2 unless a {@link Backend} is given) with the HASH policy: each unit of work runs through
 * {@link ShardedSessionFactory#callInUnit}, which routes the key to its shard, opens the session and local
 * transaction there and commits.
 */
public final class AtomicShardsSide implements UnitOfWorkSide {

    private final ShardDatabases shards;
    private final ShardedSessionFactory factory;

    public AtomicShardsSide() {
        this(Backend.H2);
    }

    public AtomicShardsSide(Backend backend) {
        this(backend, UnaryOperator.identity());
    }

    /** @param customize settings beyond the benchmark's (the metrics' meter registry, say) */
    public AtomicShardsSide(Backend backend, UnaryOperator<ShardedSessionFactoryBuilder> customize) {
        this(backend, SHARDS, customize);
    }

    /** @param shardCount the number of shards, {@link #SHARDS} unless a comparison needs another */
    public AtomicShardsSide(Backend backend, int shardCount, UnaryOperator<ShardedSessionFactoryBuilder> customize) {
        shards = backend.createWithoutPools("uow_as", shardCount);
        factory = AtomicShardsFactories.build(shards, Policies.hash(), customize);
        DataLoader.loadCustomers(shards, CUSTOMERS, AtomicShardsFactories.placement(factory));
    }

    ShardDatabases shards() {
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
