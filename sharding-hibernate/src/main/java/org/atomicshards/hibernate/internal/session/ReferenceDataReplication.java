package org.atomicshards.hibernate.internal.session;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ReferenceDataWriteException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.Session;

/**
 * Applies a reference-data write on every shard: the work runs and flushes in one transaction per shard, then the
 * transactions commit in topology order. A failure before the commits rolls back everywhere; a failed commit stops the
 * remaining ones, and the exception says which shards applied the write.
 */
final class ReferenceDataReplication {

    private final Object owner;
    private final ShardSessions sessions;
    private final Supplier<List<ShardId>> shards;
    private final ReadWriteLock topologyLock;

    /** @param owner the factory (its binding owner) */
    /**
     * @param shards       every active shard now
     * @param topologyLock read-locked during a write, so that a shard being added receives its copy of reference
     *                     data before or after the write, never in between
     */
    ReferenceDataReplication(Object owner, ShardSessions sessions, Supplier<List<ShardId>> shards,
                             ReadWriteLock topologyLock) {
        this.owner = owner;
        this.sessions = sessions;
        this.shards = shards;
        this.topologyLock = topologyLock;
    }

    /**
     * @throws org.atomicshards.hibernate.CrossShardUnitOfWorkException inside a unit of work of this factory
     * @throws ReferenceDataWriteException if a shard failed
     */
    void replicate(Consumer<Session> work) {
        ShardBinding.requireNoOpenUnitOfWork(owner, "replicate reference data");
        topologyLock.readLock().lock();
        try {
            replicateOnEveryShard(work, shards.get());
        } finally {
            topologyLock.readLock().unlock();
        }
    }

    private void replicateOnEveryShard(Consumer<Session> work, List<ShardId> shards) {
        Map<ShardId, Session> open = new LinkedHashMap<>();
        try {
            ShardBinding.replicating(owner, () -> {
                for (ShardId shard : shards) {
                    Session session = sessions.open(shard);
                    open.put(shard, session);
                    session.beginTransaction();
                    work.accept(session);
                    session.flush();
                }
            });
        } catch (RuntimeException e) {
            open.values().forEach(ReferenceDataReplication::rollbackQuietly);
            Map<ShardId, String> failed = new LinkedHashMap<>();
            ShardId failing = open.isEmpty() ? shards.get(0) : new ArrayList<>(open.keySet()).get(open.size() - 1);
            for (ShardId shard : shards) {
                failed.put(shard, shard.equals(failing) ? String.valueOf(UnitFailures.unwrapped(e).getMessage())
                        : "rolled back because shard '" + failing + "' failed");
            }
            throw new ReferenceDataWriteException(List.of(), failed, UnitFailures.unwrapped(e));
        }
        commitInOrder(open);
    }

    private static void commitInOrder(Map<ShardId, Session> open) {
        List<ShardId> applied = new ArrayList<>();
        Map<ShardId, String> failed = new LinkedHashMap<>();
        RuntimeException firstFailure = null;
        for (Map.Entry<ShardId, Session> entry : open.entrySet()) {
            try (Session session = entry.getValue()) {
                if (firstFailure == null) {
                    session.getTransaction().commit();
                    applied.add(entry.getKey());
                } else {
                    session.getTransaction().rollback();
                    failed.put(entry.getKey(), "not committed because an earlier shard's commit failed");
                }
            } catch (RuntimeException e) {
                firstFailure = e;
                failed.put(entry.getKey(), String.valueOf(e.getMessage()));
            }
        }
        if (firstFailure != null) {
            throw new ReferenceDataWriteException(applied, failed, firstFailure);
        }
    }

    private static void rollbackQuietly(Session session) {
        try {
            if (session.getTransaction().isActive()) {
                session.getTransaction().rollback();
            }
        } catch (RuntimeException ignored) {
            // the write already failed; the rollback of an unusable connection adds nothing to report
        } finally {
            session.close();
        }
    }
}
