package org.atomicshards.spring.internal;

import java.util.function.Supplier;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;

/**
 * The shard the current thread's Spring unit of work is pinned to, for the duration of a scope. Entity managers
 * created inside a scope (the transaction's, Spring's shared one) are bound to its shard; entity managers created
 * outside bind to the first shard they touch.
 */
public final class ShardScope {

    private static final ThreadLocal<ShardId> CURRENT = new ThreadLocal<>();

    private ShardScope() {
    }

    /** The shard of the innermost scope, or null outside any scope. */
    public static ShardId current() {
        return CURRENT.get();
    }

    /**
     * Runs {@code work} pinned to {@code shard}. Inside a scope of the same shard, joins it.
     *
     * @throws CrossShardUnitOfWorkException inside a scope of another shard, before running anything
     */
    public static <T> T callOn(ShardId shard, String what, Supplier<T> work) {
        ShardId previous = CURRENT.get();
        if (previous != null && !previous.equals(shard)) {
            throw new CrossShardUnitOfWorkException("Cannot run " + what + " on shard '" + shard + "' inside the "
                    + "unit of work pinned to shard '" + previous + "': a unit of work is one shard and one local "
                    + "transaction. Nothing was run. Fix: call it after the current unit of work returns (a saga "
                    + "for cross-unit workflows)");
        }
        if (previous != null) {
            return work.get();
        }
        CURRENT.set(shard);
        try {
            return work.get();
        } finally {
            CURRENT.remove();
        }
    }
}
