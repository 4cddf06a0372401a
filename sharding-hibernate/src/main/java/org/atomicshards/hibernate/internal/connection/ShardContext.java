package org.atomicshards.hibernate.internal.connection;

import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;

/**
 * The shard the current thread works on, set for the duration of a scope. Hibernate's tenant resolver reads it when
 * a session is opened without an explicit shard (JPA {@code createEntityManager()}, Spring-managed sessions).
 */
public final class ShardContext {

    private static final ThreadLocal<ShardId> CURRENT = new ThreadLocal<>();

    private ShardContext() {
    }

    /** The shard of the innermost enclosing scope, or null outside any scope. */
    public static ShardId current() {
        return CURRENT.get();
    }

    /** Runs {@code work} with {@code shard} as the current shard and restores the previous one afterwards. */
    public static <T> T callOn(ShardId shard, Supplier<T> work) {
        ShardId previous = CURRENT.get();
        CURRENT.set(shard);
        try {
            return work.get();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }
}
