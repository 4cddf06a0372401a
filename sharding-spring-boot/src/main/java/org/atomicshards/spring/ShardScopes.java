package org.atomicshards.spring;

import java.util.Optional;
import java.util.function.Supplier;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.atomicshards.spring.internal.UnitResolver;

/**
 * Explicit units of work for Spring code: pins everything called inside to the shard owning a key, so that a
 * {@code @Transactional} method, a repository call or a {@code TransactionTemplate} started inside runs on that shard
 * in one local transaction. The programmatic twin of {@link ShardKeyParam}.
 *
 * <pre>{@code
 * shardScopes.runInUnit(Customer.class, customerId, () -> orderService.placeOrder(customerId, lines));
 * }</pre>
 *
 * A scope opened inside a scope of the same shard joins it; inside a scope of another shard it throws
 * {@link CrossShardUnitOfWorkException} before running anything. Thread-bound: work handed to other threads does not
 * inherit the scope. Available as a bean from the auto-configuration.
 */
public final class ShardScopes {

    private final ShardedSessionFactory shards;
    private final UnitResolver units;

    public ShardScopes(ShardedSessionFactory shards) {
        this.shards = shards;
        this.units = new UnitResolver(shards);
    }

    /**
     * Runs {@code work} pinned to the shard owning {@code key} of {@code unit} (the unit's root or a member class).
     * A key of a lookup or round-robin unit that was never placed pins nothing: the first write places it.
     */
    public <R> R callInUnit(Class<?> unit, Object key, Supplier<R> work) {
        int mapVersion = shards.directory().version(); // before resolving: a later move raises it
        Optional<ShardId> shard = units.shardFor(unit, key);
        if (shard.isEmpty()) {
            return work.get();
        }
        return pin(shard.get(), "run " + unit.getSimpleName() + " " + key, mapVersion, work);
    }

    /** As {@link #callInUnit(Class, Object, Supplier)} without a result. */
    public void runInUnit(Class<?> unit, Object key, Runnable work) {
        callInUnit(unit, key, () -> {
            work.run();
            return null;
        });
    }

    /** As {@link #callInUnit(Class, Object, Supplier)} for an application with exactly one atomic unit. */
    public <R> R callInUnit(Object key, Supplier<R> work) {
        return callInUnit(units.onlyUnit(), key, work);
    }

    /**
     * Runs {@code work} pinned to {@code shard}.
     *
     * @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology
     */
    public <R> R callOnShard(ShardId shard, Supplier<R> work) {
        if (!shards.shards().contains(shard)) {
            throw new org.atomicshards.hibernate.UnknownShardException("Shard '" + shard + "' is not in the topology "
                    + shards.shards() + ". Fix: use one of these shard ids");
        }
        return pin(shard, "run work", ShardBinding.UNKNOWN_MAP_VERSION, work);
    }

    /**
     * The shard the current thread is bound to, if any: of the innermost scope of this factory, of a
     * {@code ShardedSessionFactory.inUnit} unit of work or of an {@link org.atomicshards.hibernate.ShardScope}.
     */
    public Optional<ShardId> currentShard() {
        return Optional.ofNullable(ShardBinding.shard(shards));
    }

    /** A unit of work of the factory bound to {@code shard}, holding no session: entity managers bind to it lazily. */
    private <R> R pin(ShardId shard, String what, int mapVersion, Supplier<R> work) {
        if (ShardBinding.join(shards, shard, () -> what) != null) {
            return work.get();
        }
        return ShardBinding.inNewUnitOfWork(shards, shard, null, mapVersion, work);
    }
}
