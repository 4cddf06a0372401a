package org.atomicshards.hibernate.internal.routing;

import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.proxy.HibernateProxy;

/**
 * Reads the shard key of one entity type, precomputed at boot: the key is the entity's id, a basic attribute, or
 * the id of the associated root ({@code @ManyToOne @ShardKey}). Reads go through Hibernate's own property access;
 * nothing is looked up by name per call.
 */
public final class MemberKey {

    /** Where the key lives in the entity. */
    public enum Kind { ID, ATTRIBUTE, ROOT_ASSOCIATION }

    private final Class<?> entityType;
    private final String path;
    private final Kind kind;
    private final int propertyIndex;
    private final EntityPersister persister;
    private final EntityPersister rootPersister;

    /**
     * @param path the attribute path as reported by {@code UnitRouting.shardKeyPath}
     * @param propertyIndex index of the attribute in the persister's state; -1 for {@link Kind#ID}
     * @param rootPersister the root's persister for {@link Kind#ROOT_ASSOCIATION}; otherwise null
     */
    public MemberKey(Class<?> entityType, String path, Kind kind, int propertyIndex, EntityPersister persister,
                     EntityPersister rootPersister) {
        this.entityType = entityType;
        this.path = path;
        this.kind = kind;
        this.propertyIndex = propertyIndex;
        this.persister = persister;
        this.rootPersister = rootPersister;
    }

    public Class<?> entityType() {
        return entityType;
    }

    public String path() {
        return path;
    }

    public Kind kind() {
        return kind;
    }

    public int propertyIndex() {
        return propertyIndex;
    }

    public EntityPersister persister() {
        return persister;
    }

    /** The key of {@code entity}, or null if it has none yet. */
    public Object keyOf(Object entity) {
        return switch (kind) {
            case ID -> persister.getIdentifier(entity);
            case ATTRIBUTE -> persister.getValue(entity, propertyIndex);
            case ROOT_ASSOCIATION -> idOf(persister.getValue(entity, propertyIndex));
        };
    }

    /** The key from an event's state array and id, or null. */
    public Object keyFromState(Object[] state, Object id) {
        return switch (kind) {
            case ID -> id;
            case ATTRIBUTE -> state[propertyIndex];
            case ROOT_ASSOCIATION -> idOf(state[propertyIndex]);
        };
    }

    /** Assigns a generated key to a new entity (only for {@link Kind#ID} and {@link Kind#ATTRIBUTE}). */
    public void assign(Object entity, Object key) {
        switch (kind) {
            case ID -> persister.setIdentifier(entity, key, null);
            case ATTRIBUTE -> persister.setValue(entity, propertyIndex, key);
            case ROOT_ASSOCIATION -> throw new IllegalStateException("A member's key comes from its root");
        }
    }

    private Object idOf(Object root) {
        if (root == null) {
            return null;
        }
        if (root instanceof HibernateProxy proxy) {
            return proxy.getHibernateLazyInitializer().getInternalIdentifier();
        }
        return rootPersister.getIdentifier(root);
    }
}
