package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.ShardId;
import org.hibernate.Session;

/**
 * The unit of work running on the current thread, if any: its shard and its session. Used to join nested units on
 * the same shard and to reject a second shard.
 */
record UnitScope(Object factory, ShardId shard, Session session) {

    private static final ThreadLocal<UnitScope> CURRENT = new ThreadLocal<>();

    static UnitScope current(Object factory) {
        UnitScope scope = CURRENT.get();
        return scope != null && scope.factory == factory ? scope : null;
    }

    static UnitScope enter(UnitScope scope) {
        UnitScope previous = CURRENT.get();
        CURRENT.set(scope);
        return previous;
    }

    static void restore(UnitScope previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }
}
