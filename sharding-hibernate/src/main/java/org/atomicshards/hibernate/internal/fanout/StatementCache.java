package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.hibernate.query.sqm.SqmQuerySource;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;

/**
 * A bounded, least-recently-used cache of what a fan-out derives from a statement's tree alone (its merge plan,
 * whether it reads reference data only), keyed by statement identity. Identity, not structural equality: a plan
 * refers to its statement's parameter nodes, which are bound by identity (criteria parameters). Holds HQL statements
 * only: they come from Hibernate's interpretation cache, which never changes them, so one HQL string (and result
 * type) is one key. A criteria query can be changed by the application after it ran; it is never a key here (see
 * {@link #cacheable}).
 *
 * @param <V> what is derived; never null
 */
final class StatementCache<V> {

    private final Map<Key, V> values;

    StatementCache(int capacity) {
        this.values = new LinkedHashMap<>(capacity, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, V> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Whether what is derived from {@code statement} may be kept: an HQL statement, not a criteria query. */
    private static boolean cacheable(SqmSelectStatement<?> statement) {
        return statement.getQuerySource() != SqmQuerySource.CRITERIA;
    }

    /** The value derived from {@code statement}: cached if it is {@link #cacheable}, else derived afresh. */
    V get(SqmSelectStatement<?> statement, Function<SqmSelectStatement<?>, V> derive) {
        if (!cacheable(statement)) {
            return derive.apply(statement);
        }
        Key key = new Key(statement);
        synchronized (values) {
            V value = values.get(key);
            if (value != null) {
                return value;
            }
        }
        V value = derive.apply(statement);
        synchronized (values) {
            values.putIfAbsent(key, value);
        }
        return value;
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
