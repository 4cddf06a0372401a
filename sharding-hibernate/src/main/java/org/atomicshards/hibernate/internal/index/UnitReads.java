package org.atomicshards.hibernate.internal.index;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.atomicshards.hibernate.ShardId;
import org.hibernate.Session;
import org.hibernate.Transaction;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Reads the units an index points at, on their own shards, in read-only sessions of their own: whether a unit holds
 * a value, which values it holds, and the entities holding one. What the units say is the truth an index entry is
 * checked against.
 */
final class UnitReads {

    private final SessionFactoryImplementor sessionFactory;

    UnitReads(SessionFactoryImplementor sessionFactory) {
        this.sessionFactory = sessionFactory;
    }

    /** Whether a row of the index's entity in the unit {@code key} on {@code shard} holds {@code value}. */
    boolean holds(ShardId shard, IndexDefinition index, Object key, Object value) {
        return onShard(shard, session -> session.createSelectionQuery("select count(*) from " + index.entityName()
                        + " e where e." + index.keyPath() + " = :key and e." + index.attribute() + " = :value", Long.class)
                .setParameter("key", key).setParameter("value", value).getSingleResult() > 0);
    }

    /** The digests of the values the index's entity holds in the unit {@code key} on {@code shard} (nulls left out). */
    Set<String> digestsHeld(ShardId shard, IndexDefinition index, Object key) {
        List<?> values = onShard(shard, session -> session.createSelectionQuery("select e." + index.attribute()
                        + " from " + index.entityName() + " e where e." + index.keyPath() + " = :key", Object.class)
                .setParameter("key", key).getResultList());
        Set<String> digests = new HashSet<>();
        for (Object value : values) {
            if (value != null) {
                digests.add(IndexValues.digest(value));
            }
        }
        return digests;
    }

    /** The entities of type {@code type} on {@code shard} in the units {@code keys} whose attribute has one of {@code values}. */
    <T> List<T> holders(ShardId shard, IndexDefinition index, Class<T> type, Collection<?> keys, Collection<?> values) {
        return onShard(shard, session -> session.createSelectionQuery("from " + sessionFactory.getMappingMetamodel()
                                .getEntityDescriptor(type).getEntityName() + " e where e." + index.keyPath()
                                + " in (:keys) and e." + index.attribute() + " in (:values)", type)
                .setParameter("keys", keys).setParameter("values", values).getResultList());
    }

    /**
     * A page of the index entity's rows on {@code shard} in id order, after {@code afterId} (null: from the start):
     * each row as {id, unit key, value}.
     */
    List<Object[]> page(ShardId shard, IndexDefinition index, Object afterId, int size) {
        return onShard(shard, session -> {
            var query = session.createSelectionQuery("select id(e), e." + index.keyPath() + ", e." + index.attribute()
                    + " from " + index.entityName() + " e" + (afterId == null ? "" : " where id(e) > :after")
                    + " order by id(e)", Object[].class).setMaxResults(size);
            if (afterId != null) {
                query.setParameter("after", afterId);
            }
            return query.getResultList();
        });
    }

    private <R> R onShard(ShardId shard, Function<Session, R> read) {
        try (Session session = sessionFactory.withOptions().tenantIdentifier(shard).readOnly(true).openSession()) {
            session.setDefaultReadOnly(true);
            Transaction transaction = session.beginTransaction();
            try {
                return read.apply(session);
            } finally {
                transaction.rollback();
            }
        }
    }
}
