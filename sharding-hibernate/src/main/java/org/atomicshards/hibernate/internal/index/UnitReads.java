package org.atomicshards.hibernate.internal.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.FenceRejection;
import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.hibernate.Session;
import org.hibernate.Transaction;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Reads the units an index points at, on their own shards, in read-only sessions of their own: whether a unit holds
 * a value, which values it holds, and the entities holding one. What the units say is the truth an index entry is
 * checked against, so each read by key is confirmed as a session opened for the unit is: after it ran, the shard must
 * still hold the units it read (a move's release deletes a unit's rows and its claim in one transaction); a shard that
 * gave them away is left for the one a refreshed map names, one that is switching them is waited for.
 */
final class UnitReads {

    /** A read of the units {@code keys}, all on the session's shard. */
    private interface KeyedRead<R> {
        List<R> run(Session session, Collection<Object> keys);
    }

    private final SessionFactoryImplementor sessionFactory;
    private final OwnershipFence fence;
    private final CachedShardDirectory directory;

    UnitReads(SessionFactoryImplementor sessionFactory, OwnershipFence fence, CachedShardDirectory directory) {
        this.sessionFactory = sessionFactory;
        this.fence = fence;
        this.directory = directory;
    }

    /** Whether a row of the index's entity in the unit {@code key} holds {@code value}. */
    boolean holds(IndexDefinition index, Object key, Object value) {
        List<Long> counts = byKeys(index, List.of(key), (session, keys) -> session.createSelectionQuery(
                        "select count(*) from " + index.entityName() + " e where e." + index.keyPath()
                                + " in (:keys) and e." + index.attribute() + " = :value", Long.class)
                .setParameter("keys", keys).setParameter("value", value).getResultList());
        return counts.stream().anyMatch(count -> count > 0);
    }

    /** The digests of the values the index's entity holds in the unit {@code key} (nulls left out). */
    Set<String> digestsHeld(IndexDefinition index, Object key) {
        List<Object> values = byKeys(index, List.of(key), (session, keys) -> session.createSelectionQuery("select e."
                        + index.attribute() + " from " + index.entityName() + " e where e." + index.keyPath()
                        + " in (:keys)", Object.class).setParameter("keys", keys).getResultList());
        Set<String> digests = new HashSet<>();
        for (Object value : values) {
            if (value != null) {
                digests.add(IndexValues.digest(value));
            }
        }
        return digests;
    }

    /** The entities of type {@code type} in the units {@code keys} whose attribute has one of {@code values}. */
    <T> List<T> holders(IndexDefinition index, Class<T> type, Collection<?> keys, Collection<?> values) {
        String entityName = sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getEntityName();
        return byKeys(index, keys, (session, onShard) -> session.createSelectionQuery("from " + entityName + " e where e."
                        + index.keyPath() + " in (:keys) and e." + index.attribute() + " in (:values)", type)
                .setParameter("keys", onShard).setParameter("values", values).getResultList());
    }

    /**
     * Runs {@code read} for the units {@code keys} on the shards holding them, each shard's read confirmed after it
     * ran; units of no shard are left out.
     */
    private <R> List<R> byKeys(IndexDefinition index, Collection<?> keys, KeyedRead<R> read) {
        List<R> results = new ArrayList<>();
        List<Object> pending = new ArrayList<>(keys);
        MoveWait wait = new MoveWait(directory, true);
        while (!pending.isEmpty()) {
            int mapVersion = index.unit().placement().mapVersion(); // before routing, as a ring's fence compares it
            Map<ShardId, List<Object>> byOwner = new LinkedHashMap<>();
            for (Object key : pending) {
                ShardId owner = index.unit().ownerOf(key);
                if (owner != null) {
                    byOwner.computeIfAbsent(owner, any -> new ArrayList<>()).add(key);
                }
            }
            pending = new ArrayList<>();
            for (Map.Entry<ShardId, List<Object>> group : byOwner.entrySet()) {
                try {
                    results.addAll(confirmed(index, group.getKey(), group.getValue(), mapVersion, read));
                } catch (FenceRejection rejection) {
                    wait.beforeRetry(rejection, "read the units index " + index.name() + " names");
                    pending.addAll(group.getValue());
                }
            }
        }
        return results;
    }

    private <R> List<R> confirmed(IndexDefinition index, ShardId shard, List<Object> keys, int mapVersion,
                                  KeyedRead<R> read) {
        return onShard(shard, session -> {
            List<R> found = read.run(session, keys);
            session.doWork(connection -> {
                for (Object key : keys) {
                    FenceTarget target = target(index, key, mapVersion);
                    if (target != null) {
                        fence.confirmHeld(connection, shard, target);
                    }
                }
            });
            return found;
        });
    }

    private static FenceTarget target(IndexDefinition index, Object key, int mapVersion) {
        if (index.unit().placement().onRing()) {
            return FenceTarget.onRing(index.unit(), key, mapVersion);
        }
        int bucket = index.unit().placement().virtualShardOf(key);
        return bucket < 0 ? null : FenceTarget.of(index.unit(), bucket, key);
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
