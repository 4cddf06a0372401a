package org.atomicshards.hibernate.internal.index;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.hibernate.LockMode;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.event.spi.AbstractPreDatabaseOperationEvent;
import org.hibernate.event.spi.PreDeleteEvent;
import org.hibernate.event.spi.PreDeleteEventListener;
import org.hibernate.event.spi.PreInsertEvent;
import org.hibernate.event.spi.PreInsertEventListener;
import org.hibernate.event.spi.PreUpdateEvent;
import org.hibernate.event.spi.PreUpdateEventListener;
import org.hibernate.event.spi.PreUpsertEvent;
import org.hibernate.event.spi.PreUpsertEventListener;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.query.QueryFlushMode;

/**
 * Keeps the indexes with the writes of units of work, as PRE_INSERT / PRE_UPDATE / PRE_DELETE listeners that run in
 * the flush, right before each row's statement:
 * <ol>
 *   <li>every index change of a unit is serialised on the unit: the unit's root row is locked in the unit's own
 *       transaction (a row of the root itself: that row), so two units of work never change one unit's entries at
 *       once;</li>
 *   <li>the value the row holds <em>now</em> is read under that lock (not the value the session loaded, which may be
 *       stale);</li>
 *   <li>a new value's entry is claimed, and committed, before the row's statement runs; an old value's entry is
 *       marked, and deleted after the unit of work commits ({@link PendingIndexWork}).</li>
 * </ol>
 * Upserts of indexed entities are refused: they write without telling what the row held.
 */
public final class IndexWrites implements PreInsertEventListener, PreUpdateEventListener, PreDeleteEventListener,
        PreUpsertEventListener {

    private volatile IndexDefinitions definitions;
    private volatile IndexClaims claims;
    private final Map<SharedSessionContractImplementor, PendingIndexWork> pending =
            Collections.synchronizedMap(new WeakHashMap<>());

    /** Starts keeping {@code definitions} with {@code claims}; until then, writes pass untouched. */
    void activate(IndexDefinitions definitions, IndexClaims claims) {
        this.claims = claims;
        this.definitions = definitions;
    }

    @Override
    public boolean onPreInsert(PreInsertEvent event) {
        List<IndexDefinition> indexes = indexesOf(event);
        if (indexes.isEmpty()) {
            return false;
        }
        Object key = keyOf(event);
        boolean unitLocked = false;
        for (IndexDefinition index : indexes) {
            Object value = valueIn(event.getState(), event.getPersister(), index);
            if (value == null) {
                continue;
            }
            if (!index.onRoot() && !unitLocked) {
                lockUnit(event.getSession(), index, key);
                unitLocked = true;
            }
            work(event.getSession()).claim(index, value, key);
        }
        return false;
    }

    @Override
    public boolean onPreUpdate(PreUpdateEvent event) {
        List<IndexDefinition> indexes = indexesOf(event);
        if (indexes.isEmpty()) {
            return false;
        }
        Object key = keyOf(event);
        lockUnit(event.getSession(), indexes.get(0), key);
        for (IndexDefinition index : indexes) {
            if (!writes(event, index)) {
                continue; // a dynamic update leaves the column as it is
            }
            Object current = currentValue(event, index);
            Object next = valueIn(event.getState(), event.getPersister(), index);
            if (Objects.equals(digestOrNull(current), digestOrNull(next))) {
                continue;
            }
            PendingIndexWork work = work(event.getSession());
            if (next != null) {
                work.claim(index, next, key);
            }
            if (current != null) {
                work.mark(index, current, key);
            }
        }
        return false;
    }

    @Override
    public boolean onPreDelete(PreDeleteEvent event) {
        List<IndexDefinition> indexes = indexesOf(event);
        if (indexes.isEmpty()) {
            return false;
        }
        Object key = keyOf(event);
        lockUnit(event.getSession(), indexes.get(0), key);
        for (IndexDefinition index : indexes) {
            Object current = currentValue(event, index);
            if (current != null) {
                work(event.getSession()).mark(index, current, key);
            }
        }
        return false;
    }

    @Override
    public boolean onPreUpsert(PreUpsertEvent event) {
        List<IndexDefinition> indexes = indexesOf(event);
        if (!indexes.isEmpty()) {
            throw new ShardIndexException("Upsert of " + event.getPersister().getEntityName() + ", which has the index "
                    + indexes.get(0).name() + ". An upsert does not tell what the row held, so its index cannot be "
                    + "kept. Nothing was written. Fix: insert or update the entity in a session");
        }
        return false;
    }

    private List<IndexDefinition> indexesOf(AbstractPreDatabaseOperationEvent event) {
        IndexDefinitions known = definitions;
        return known == null ? List.of() : known.of(event.getPersister().getMappedClass());
    }

    private PendingIndexWork work(SharedSessionContractImplementor session) {
        synchronized (pending) {
            PendingIndexWork work = pending.get(session);
            if (work == null) {
                work = new PendingIndexWork(claims, () -> pending.remove(session));
                pending.put(session, work);
                session.getTransactionCompletionCallbacks().registerCallback(
                        (org.hibernate.engine.spi.TransactionCompletionCallbacks.BeforeCompletionCallback) work);
                session.getTransactionCompletionCallbacks().registerCallback(
                        (org.hibernate.engine.spi.TransactionCompletionCallbacks.AfterCompletionCallback) work);
            }
            return work;
        }
    }

    private Object keyOf(AbstractPreDatabaseOperationEvent event) {
        IndexDefinition any = indexesOf(event).get(0);
        MemberKey memberKey = any.unit().memberKey(event.getPersister().getMappedClass());
        return any.unit().checkKey(memberKey.keyOf(event.getEntity()));
    }

    /**
     * Whether the update writes the indexed column: always under Hibernate's default full update (which writes back
     * what the session loaded, even a stale value); under {@code @DynamicUpdate} only when the attribute is dirty.
     */
    private static boolean writes(PreUpdateEvent event, IndexDefinition index) {
        if (!event.getPersister().isDynamicUpdate() || event.getOldState() == null) {
            return true;
        }
        return !Objects.equals(valueIn(event.getOldState(), event.getPersister(), index),
                valueIn(event.getState(), event.getPersister(), index));
    }

    private static Object valueIn(Object[] state, EntityPersister persister, IndexDefinition index) {
        String[] names = persister.getPropertyNames();
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(index.attribute())) {
                return state[i];
            }
        }
        throw new IllegalStateException(persister.getEntityName() + " has no attribute " + index.attribute());
    }

    /** Locks the unit's root row in the unit of work's transaction (a new root's own insert needs no lock). */
    private static void lockUnit(SharedSessionContractImplementor session, IndexDefinition index, Object key) {
        String rootName = session.getFactory().getMappingMetamodel().getEntityDescriptor(index.unit().root())
                .getEntityName();
        String path = index.rootKeyPath();
        session.createSelectionQuery("select r." + path + " from " + rootName + " r where r." + path + " = :key",
                        Object.class)
                .setParameter("key", key)
                .setHibernateLockMode(LockMode.PESSIMISTIC_WRITE)
                .setQueryFlushMode(QueryFlushMode.NO_FLUSH)
                .getResultList();
    }

    /** The value the row holds in the database now, read under a lock (the unit is locked already). */
    private static Object currentValue(AbstractPreDatabaseOperationEvent event, IndexDefinition index) {
        return event.getSession().createSelectionQuery("select e." + index.attribute() + " from "
                        + event.getPersister().getEntityName() + " e where id(e) = :id", Object.class)
                .setParameter("id", event.getId())
                .setHibernateLockMode(LockMode.PESSIMISTIC_WRITE)
                .setQueryFlushMode(QueryFlushMode.NO_FLUSH)
                .getSingleResultOrNull();
    }

    private static String digestOrNull(Object value) {
        return value == null ? null : IndexValues.digest(value);
    }
}
