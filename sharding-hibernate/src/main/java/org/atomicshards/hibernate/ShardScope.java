package org.atomicshards.hibernate;

import java.util.function.Supplier;

import org.atomicshards.hibernate.internal.connection.ShardContext;

/**
 * The current thread's shard scope. A session or {@code EntityManager} opened without naming a shard (JPA's
 * {@code createEntityManager()}, a Spring-managed {@code EntityManager}) is bound to the shard of the innermost
 * enclosing scope; Hibernate reads it through the factory's {@code CurrentTenantIdentifierResolver}. Outside any scope
 * the setting {@code atomicshards.default_shard} applies, if set; otherwise Hibernate refuses to open the session.
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
        return ShardContext.callOn(shard, work);
    }

    /** Runs {@code work} with {@code shard} as the current shard, restoring the previous scope afterwards. */
    public static void runOn(ShardId shard, Runnable work) {
        ShardContext.callOn(shard, () -> {
            work.run();
            return null;
        });
    }

    /** The current thread's shard, or null outside any scope. */
    public static ShardId current() {
        return ShardContext.current();
    }
}
