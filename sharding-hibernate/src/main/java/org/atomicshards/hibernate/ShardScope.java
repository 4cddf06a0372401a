package org.atomicshards.hibernate;

import java.util.function.Supplier;

import org.atomicshards.hibernate.internal.scope.ShardBinding;

/**
 * The current thread's shard scope. A session or {@code EntityManager} opened without naming a shard (JPA's
 * {@code createEntityManager()}, a Spring-managed {@code EntityManager}) is bound to the shard of the innermost
 * enclosing scope (or unit of work, such as {@code ShardedSessionFactory.inUnit}); Hibernate reads it through the
 * factory's {@code CurrentTenantIdentifierResolver}. Outside any scope the setting {@code atomicshards.default_shard}
 * applies, if set; otherwise Hibernate refuses to open the session. A scope may name another shard than an enclosing
 * scope; a unit of work started inside a unit of work still cannot reach a second shard.
 *
 * <pre>{@code
 * ShardId shard = shards.shardFor(Customer.class, customerId).orElseThrow();
 * Customer customer = ShardScope.callOn(shard, () -> {
 *     EntityManager em = emf.createEntityManager();   // bound to 'shard' for its whole life
 *     try { return em.find(Customer.class, customerId); } finally { em.close(); }
 * });
 * }</pre>
 */
public final class ShardScope {

    private ShardScope() {
    }

    /** Runs {@code work} with {@code shard} as the current shard, restoring the previous scope afterwards. */
    public static <T> T callOn(ShardId shard, Supplier<T> work) {
        return ShardBinding.inScope(shard, work);
    }

    /** Runs {@code work} with {@code shard} as the current shard, restoring the previous scope afterwards. */
    public static void runOn(ShardId shard, Runnable work) {
        ShardBinding.inScope(shard, () -> {
            work.run();
            return null;
        });
    }

    /** The current thread's shard (of the innermost scope or unit of work), or null outside any. */
    public static ShardId current() {
        return ShardBinding.shard(null);
    }
}
