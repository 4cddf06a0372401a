package org.atomicshards.hibernate.internal.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.ReplicaConfig;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.event.spi.PreCollectionRecreateEvent;
import org.hibernate.event.spi.PreCollectionRecreateEventListener;
import org.hibernate.event.spi.PreCollectionRemoveEvent;
import org.hibernate.event.spi.PreCollectionRemoveEventListener;
import org.hibernate.event.spi.PreCollectionUpdateEvent;
import org.hibernate.event.spi.PreCollectionUpdateEventListener;
import org.hibernate.event.spi.PreDeleteEvent;
import org.hibernate.event.spi.PreDeleteEventListener;
import org.hibernate.event.spi.PreInsertEvent;
import org.hibernate.event.spi.PreInsertEventListener;
import org.hibernate.event.spi.PreUpdateEvent;
import org.hibernate.event.spi.PreUpdateEventListener;
import org.hibernate.event.spi.PreUpsertEvent;
import org.hibernate.event.spi.PreUpsertEventListener;

/**
 * Read-your-writes for replica reads ({@code atomicshards.replicas.read_your_writes}): once a transaction that wrote
 * on a shard's primary commits, the primary's log position is read (one statement on another of its connections) and
 * kept for the committing thread; that thread's later replica reads of the shard use a
 * replica only once it has replayed that position, waiting for it a bounded time. Registered as Hibernate's write
 * listeners (entity and collection writes) and called for bulk and native writes. Thread-safe.
 */
public final class ReadYourWrites implements PreInsertEventListener, PreUpdateEventListener, PreDeleteEventListener,
        PreUpsertEventListener, PreCollectionRecreateEventListener, PreCollectionUpdateEventListener,
        PreCollectionRemoveEventListener {

    private final ShardPools pools;
    private final ReplicaConfig config;
    /**
     * What each thread last wrote on each shard: the primary's log position just after the write committed. Positions
     * only grow, so a thread keeps the latest one per shard.
     */
    private final ThreadLocal<Map<ShardId, String>> positions = ThreadLocal.withInitial(HashMap::new);
    /** The sessions whose transactions are watched, each with whether its current transaction wrote. */
    private final Map<SharedSessionContractImplementor, Watch> watched = new ConcurrentHashMap<>();

    ReadYourWrites(ShardPools pools, ReplicaConfig config) {
        this.pools = pools;
        this.config = config;
    }

    /** This thread's write positions, for reads it starts (also on other threads, as a fan-out's). */
    Map<ShardId, String> positionsOfThisThread() {
        Map<ShardId, String> written = positions.get();
        return written.isEmpty() ? Map.of() : Map.copyOf(written);
    }

    /** Notes that {@code session} writes on its shard in its current transaction. */
    public void wrote(SharedSessionContractImplementor session) {
        if (!(session.getTenantIdentifierValue() instanceof ShardId shard) || !config.hasReplicas(shard)) {
            return;
        }
        Watch watch = watched.get(session);
        if (watch == null) {
            watch = new Watch(session, shard);
            watched.put(session, watch);
            session.getEventListenerManager().addListener(watch);
        }
        watch.wrote = true;
    }

    /** Watches one session's transactions for writes that committed. */
    private final class Watch implements SessionEventListener {
        private static final long serialVersionUID = 1L;

        private final transient SharedSessionContractImplementor session;
        private final transient ShardId shard;
        private volatile boolean wrote;

        Watch(SharedSessionContractImplementor session, ShardId shard) {
            this.session = session;
            this.shard = shard;
        }

        @Override
        public void transactionCompletion(boolean successful) {
            if (wrote && successful) {
                recordPosition(shard);
            }
            wrote = false;
        }

        @Override
        public void end() {
            watched.remove(session);
        }
    }

    private void recordPosition(ShardId shard) {
        // the primary is of its replicas' kind
        ReplicaProbe probe = ReplicaProbe.forUrl(config.of(shard).get(0).url());
        String position;
        try (Connection primary = pools.connection(shard)) {
            position = probe.position(primary);
            primary.rollback();
        } catch (SQLException | RuntimeException e) {
            position = null;
        }
        // unknown: this thread's next replica reads of the shard go to the primary instead
        positions.get().put(shard, position == null ? ReplicaProbe.UNKNOWN_POSITION : position);
    }

    @Override
    public boolean onPreInsert(PreInsertEvent event) {
        wrote(event.getSession());
        return false;
    }

    @Override
    public boolean onPreUpdate(PreUpdateEvent event) {
        wrote(event.getSession());
        return false;
    }

    @Override
    public boolean onPreDelete(PreDeleteEvent event) {
        wrote(event.getSession());
        return false;
    }

    @Override
    public boolean onPreUpsert(PreUpsertEvent event) {
        wrote(event.getSession());
        return false;
    }

    @Override
    public void onPreRecreateCollection(PreCollectionRecreateEvent event) {
        wrote(event.getSession());
    }

    @Override
    public void onPreUpdateCollection(PreCollectionUpdateEvent event) {
        wrote(event.getSession());
    }

    @Override
    public void onPreRemoveCollection(PreCollectionRemoveEvent event) {
        wrote(event.getSession());
    }
}
