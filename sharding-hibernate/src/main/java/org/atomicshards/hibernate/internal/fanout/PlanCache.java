package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * A bounded, least-recently-used cache of merge plans keyed by statement identity. Identity, not structural
 * equality: a plan refers to its statement's parameter nodes, which are bound by identity (criteria parameters).
 * Holds HQL statements only: they come from Hibernate's interpretation cache, which never changes them, so one HQL
 * string (and result type) is one key. A criteria query can be changed by the application after it ran; it is never
 * a key here (see {@link FanOutEngine#plan}).
 */
final class PlanCache {

    private final Map<Key, MergePlan> plans;

    PlanCache(int capacity) {
        this.plans = new LinkedHashMap<>(capacity, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, MergePlan> eldest) {
                return size() > capacity;
            }
        };
    }

    MergePlan get(SqmSelectStatement<?> statement, Function<SqmSelectStatement<?>, MergePlan> planner) {
        Key key = new Key(statement);
        synchronized (plans) {
            MergePlan plan = plans.get(key);
            if (plan != null) {
                return plan;
            }
        }
        MergePlan plan = planner.apply(statement);
        synchronized (plans) {
            plans.putIfAbsent(key, plan);
        }
        return plan;
    }

    /** A statement compared by identity. */
    private static final class Key {
        private final SqmSelectStatement<?> statement;

        Key(SqmSelectStatement<?> statement) {
            this.statement = statement;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.statement == statement;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(statement);
        }
    }
}
