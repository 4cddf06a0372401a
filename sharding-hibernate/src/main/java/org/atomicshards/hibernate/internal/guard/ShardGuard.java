package org.atomicshards.hibernate.internal.guard;

import java.util.Objects;

import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardKeyChangedException;
import org.atomicshards.hibernate.UnreplicatedReferenceDataWriteException;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.WrongShardException;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.reshard.fence.WriteFence;
import org.atomicshards.hibernate.internal.reshard.fence.WrittenRow;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.scope.ShardBinding;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.EntityEntry;
import org.hibernate.event.spi.AbstractCollectionEvent;
import org.hibernate.event.spi.FlushEntityEvent;
import org.hibernate.event.spi.FlushEntityEventListener;
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
import org.hibernate.persister.collection.CollectionPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Checks every insert, update, upsert and delete just before Hibernate writes it, in every session of a sharded
 * factory (stateful or stateless, however it was opened), and throws instead of writing:
 * <ul>
 *   <li>{@link MissingShardKeyException} when a unit entity has no key;
 *   <li>{@link WrongShardException} when the key belongs to another shard than the session's;
 *   <li>{@link ShardKeyChangedException} when an update changes the key;
 *   <li>{@link UnreplicatedReferenceDataWriteException} when reference data is written outside a replication;
 *   <li>{@link org.atomicshards.hibernate.ShardMovingException} when the shard gave the unit's virtual shard away or
 *       is handing it over: every write of a unit, its collection tables' included, passes the unit's ownership fence
 *       first ({@link WriteFence}).
 * </ul>
 * The exception propagates out of the flush; the unit of work rolls back, so nothing is committed anywhere. A changed
 * key is also caught while the flush inspects managed entities (before any statement of that flush runs), so a key
 * mapped {@code updatable = false}, which Hibernate would silently not write, is reported rather than lost.
 *
 * <p>Relies on {@code AbstractEvent.getSession()} returning {@code SharedSessionContractImplementor}, i.e. Hibernate
 * ORM 7.2 or later.
 */
public final class ShardGuard implements PreInsertEventListener, PreUpdateEventListener, PreDeleteEventListener,
        PreUpsertEventListener, FlushEntityEventListener, PreCollectionRecreateEventListener,
        PreCollectionUpdateEventListener, PreCollectionRemoveEventListener {

    private static final long serialVersionUID = 1L;

    private transient volatile ShardRouterImpl router;
    private transient volatile ShardMetrics metrics = ShardMetrics.NONE;
    private transient volatile WriteFence writeFence;

    /**
     * Arms the guard with the built routing model; before that (during boot) nothing is checked.
     *
     * @param metrics    counts the rejections
     * @param writeFence fences the virtual shard of every unit written (online resharding)
     */
    public void activate(ShardRouterImpl router, ShardMetrics metrics, WriteFence writeFence) {
        this.metrics = metrics;
        this.writeFence = writeFence;
        this.router = router;
    }

    private RuntimeException rejected(RuntimeException rejection) {
        ShardMetrics current = metrics;
        if (current != null) {
            current.guardRejection(rejection);
        }
        return rejection;
    }

    @Override
    public boolean onPreInsert(PreInsertEvent event) {
        check(event.getEntity(), event.getPersister(), event.getState(), event.getId(), event.getSession(),
                "insert");
        return false;
    }

    @Override
    public boolean onPreUpsert(PreUpsertEvent event) {
        check(event.getEntity(), event.getPersister(), event.getState(), event.getId(), event.getSession(),
                "upsert");
        return false;
    }

    @Override
    public void onFlushEntity(FlushEntityEvent event) {
        EntityEntry entry = event.getEntityEntry();
        if (entry != null && entry.getLoadedState() != null && event.getPropertyValues() != null) {
            ShardRouterImpl current = router;
            if (current != null) {
                requireUnchangedKey(event.getEntity(), current.entityRoute(entry.getPersister().getMappedClass()),
                        entry.getId(), entry.getLoadedState(), event.getPropertyValues());
            }
        }
    }

    @Override
    public boolean onPreUpdate(PreUpdateEvent event) {
        ShardRouterImpl current = router;
        if (current == null) {
            return false;
        }
        ShardRouterImpl.EntityRoute route = current.entityRoute(event.getPersister().getMappedClass());
        if (event.getOldState() != null) {
            requireUnchangedKey(event.getEntity(), route, event.getId(), event.getOldState(), event.getState());
        }
        check(event.getEntity(), event.getPersister(), route, event.getState(), event.getId(), event.getSession(),
                "update");
        return false;
    }

    private void requireUnchangedKey(Object entity, ShardRouterImpl.EntityRoute route, Object id, Object[] oldState,
                                     Object[] newState) {
        MemberKey key = route.memberKey();
        if (key == null || key.kind() == MemberKey.Kind.ID) {
            return;
        }
        Object before = key.keyFromState(oldState, id);
        Object after = key.keyFromState(newState, id);
        if (!Objects.equals(before, after)) {
            throw rejected(new ShardKeyChangedException("The shard key of " + describe(entity, id)
                    + " was changed from " + before + " to " + after + " (attribute '" + key.path() + "'). Shard keys "
                    + "are immutable: nothing "
                    + "was written. Fix: keep the key; moving a unit to another key is an administrative operation"));
        }
    }

    @Override
    public boolean onPreDelete(PreDeleteEvent event) {
        ShardRouterImpl current = router;
        if (current == null) {
            return false;
        }
        ShardRouterImpl.EntityRoute route = current.entityRoute(event.getPersister().getMappedClass());
        if (route.referenceData()) {
            requireReplication(event.getEntity(), event.getId(), shardOf(event.getSession()), "delete");
            return false;
        }
        UnitRoutingImpl unit = route.unit();
        MemberKey memberKey = route.memberKey();
        Object key = memberKey == null || event.getDeletedState() == null ? null
                : memberKey.keyFromState(event.getDeletedState(), event.getId());
        if (key != null) {
            writeFence.beforeWrite(event.getSession(), shardOf(event.getSession()), unit, unit.checkKey(key),
                    event.getPersister(), event.getId());
        }
        return false;
    }

    @Override
    public void onPreRecreateCollection(PreCollectionRecreateEvent event) {
        fenceCollection(event);
    }

    @Override
    public void onPreUpdateCollection(PreCollectionUpdateEvent event) {
        fenceCollection(event);
    }

    @Override
    public void onPreRemoveCollection(PreCollectionRemoveEvent event) {
        fenceCollection(event);
    }

    /** A write to a collection table belongs to its owner's unit: it passes that unit's fence. */
    private void fenceCollection(AbstractCollectionEvent event) {
        ShardRouterImpl current = router;
        Object owner = event.getAffectedOwnerOrNull();
        if (current == null || owner == null) {
            return;
        }
        ShardRouterImpl.EntityRoute route = current.entityRoute(
                event.getCollectionPersister().getOwnerEntityPersister().getMappedClass());
        UnitRoutingImpl unit = route.unit();
        MemberKey memberKey = route.memberKey();
        Object key = memberKey == null ? null : memberKey.keyOf(owner);
        if (key != null) {
            SharedSessionContractImplementor session = event.getSession();
            writeFence.beforeCollectionWrite(session, shardOf(session), unit, unit.checkKey(key),
                    collectionRows(event.getCollectionPersister(), event.getAffectedOwnerIdOrNull()));
        }
    }

    /**
     * What a collection write changes, for the change log of a move: nothing of its own for an inverse collection
     * (its elements' rows log their own writes); the foreign keys of other entities' rows for a one-to-many
     * collection without a table (its whole unit is logged); otherwise the rows of its collection table, which hang
     * off the owner's row.
     */
    private static WrittenRow collectionRows(CollectionPersister collection, Object ownerId) {
        if (collection.isInverse()) {
            return WrittenRow.NONE;
        }
        if (collection.isOneToMany() || ownerId == null) {
            return WrittenRow.WHOLE_UNIT;
        }
        return WrittenRow.of(collection.getOwnerEntityPersister(), ownerId);
    }

    private void check(Object entity, EntityPersister persister, Object[] state, Object id,
                       SharedSessionContractImplementor session, String operation) {
        ShardRouterImpl current = router;
        if (current != null) {
            check(entity, persister, current.entityRoute(persister.getMappedClass()), state, id, session, operation);
        }
    }

    private void check(Object entity, EntityPersister persister, ShardRouterImpl.EntityRoute route, Object[] state,
                       Object id, SharedSessionContractImplementor session, String operation) {
        if (route.referenceData()) {
            requireReplication(entity, id, shardOf(session), operation);
            return;
        }
        UnitRoutingImpl unit = route.unit();
        MemberKey memberKey = route.memberKey();
        if (memberKey == null) {
            return;
        }
        Object key = memberKey.keyFromState(state, id);
        ShardId sessionShard = shardOf(session);
        if (key == null) {
            throw rejected(new MissingShardKeyException("Cannot " + operation + " " + describe(entity, id)
                    + ": its shard key '" + memberKey.path() + "' is null, so it belongs to no shard. Nothing was "
                    + "written. Fix: set the key (the " + unit.root().getSimpleName() + "'s key) before persisting"));
        }
        Object checked = unit.checkKey(key);
        ShardId owner = unit.ownerOf(checked);
        if (owner == null) {
            owner = placeUnplaced(unit, memberKey, checked, sessionShard, entity, id, operation);
        }
        if (!owner.equals(sessionShard)) {
            throw rejected(new WrongShardException("Cannot " + operation + " " + describe(entity, id)
                    + " on shard '" + sessionShard + "': its shard key " + key + " belongs to shard '" + owner
                    + "'. Nothing was "
                    + "written. Fix: write it in a unit of work for key " + key + " (inUnit / persist), not in a "
                    + "session of shard '" + sessionShard + "'"));
        }
        writeFence.beforeWrite(session, sessionShard, unit, checked, persister, id);
    }

    /** A new root of a directory-placed unit is placed on the session's shard; a member needs its root placed. */
    private ShardId placeUnplaced(UnitRoutingImpl unit, MemberKey memberKey, Object key, ShardId sessionShard,
                                  Object entity, Object id, String operation) {
        if (memberKey.entityType() == unit.root() || unit.root().isAssignableFrom(memberKey.entityType())) {
            return unit.placement().placeOn(key, sessionShard);
        }
        throw rejected(new UnroutableKeyException("Cannot " + operation + " " + describe(entity, id) + ": unit "
                + unit.root().getSimpleName() + " with key " + key + " has no placement in the shard directory. "
                + "Nothing was written. Fix: persist the " + unit.root().getSimpleName() + " first"));
    }

    private void requireReplication(Object entity, Object id, ShardId shard, String operation) {
        if (!ShardBinding.replicating()) {
            throw rejected(new UnreplicatedReferenceDataWriteException("Cannot " + operation + " reference data "
                    + describe(entity, id) + " in a session of shard '" + shard + "' only: the copies on the other "
                    + "shards would silently diverge. Nothing was written. Fix: write reference data with "
                    + "ShardedSessionFactory.replicate(session -> ...), which applies it on every shard"));
        }
    }

    private static ShardId shardOf(SharedSessionContractImplementor session) {
        return (ShardId) session.getTenantIdentifierValue();
    }

    private static String describe(Object entity, Object id) {
        return entity.getClass().getSimpleName() + (id == null ? "" : "#" + id);
    }
}
